/* main.c - placeholder entry point; dispatches the hidden exec-chain mode of unixbench.execl. */
#include "workloads/workload.h"

#include <string.h>

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "__exec-chain") == 0)
		return wl_exec_chain_main(argc, argv);
	return 0;
}
