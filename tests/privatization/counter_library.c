/* counter_library.c: libcounter.so, a shared library with a global (see shared_library.c). */
int lib_counter;

void lib_bump(int by) { lib_counter += by; }
int lib_value(void) { return lib_counter; }
