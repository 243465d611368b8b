/* unit.h - common includes for cmocka unit tests. */
#ifndef SYSAB_UNIT_H
#define SYSAB_UNIT_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#endif
