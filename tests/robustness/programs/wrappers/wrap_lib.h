/* wrap_lib.h: a helper library in its own C file (wrap_lib.c), as bsp-check --wrappers names it. */
#pragma once
/* Reads two ints at element `offset` of `area` on process pid into dst. */
void get_pair(int pid, const int* area, int offset, int* dst);
