/* hygiene.h: level-1 hygiene checks for authors of BSP libraries (BSPlib paper, section 6).
 *
 * A level-1 operation (a collective built on the 20 primitives) must leave the BSPlib state as it
 * found it: registrations made inside are removed inside, the tag size is restored, and the
 * message queue is empty on exit. Bracket each collective call:
 *
 *     bspcheck_level1_enter("my_bcast");
 *     my_bcast(...);
 *     bspcheck_level1_exit("my_bcast");
 *
 * On exit the runtime compares the live registrations (counting pushes and pops still pending
 * for the next sync), the tag size (valid and requested) and the unread messages with the state
 * at entry, and reports `level1-hygiene` (a warning) naming what differs. Brackets may nest.
 * Both calls are local (no synchronisation) and cost a few comparisons.
 *
 * C++: bspcheck::Level1Scope scope("my_bcast"); in include/bspcheck/hygiene.hpp. */
#ifndef BSPCHECK_HYGIENE_H
#define BSPCHECK_HYGIENE_H

#ifdef __cplusplus
extern "C" {
#endif

void bspcheck_level1_enter_at(const char *name, const char *file, int line);
void bspcheck_level1_exit_at(const char *name, const char *file, int line);

#define bspcheck_level1_enter(name) bspcheck_level1_enter_at((name), __FILE__, __LINE__)
#define bspcheck_level1_exit(name) bspcheck_level1_exit_at((name), __FILE__, __LINE__)

#ifdef __cplusplus
}
#endif

#endif /* BSPCHECK_HYGIENE_H */
