/* bsp.h under bspcc --dialect=mcbsp (and CMake's BSPCheck::mcbsp), which put this folder first on
 * the include path: MulticoreBSP for C's own bsp.h is its mcbsp.h by another name. */
#include <mcbsp.h>
