/* exec_helper.c - sysab-exec-helper: the smallest program, exec'd by kernel.proc.exec; it exits 0. */
int main(void)
{
	return 0;
}
