// tools/across_runs/hp_race_probe: which of a run's noted hpput destinations the session looks at
// again. A destination is known by all but its superstep; a malformed entry is skipped.
#include "tools/across_runs/hp_race_probe.hpp"

#include <gtest/gtest.h>

using bspcheck::HpRaceProbe;
using bspcheck::cli::new_probes;

TEST(HpRaceProbe, EachDestinationIsLookedAtOnce) {
  std::set<std::string> probed;
  const std::vector<HpRaceProbe> first = new_probes({"1/1/0/0/4/0/12/a.c", "1/1/0/4/4/0/13/a.c"}, probed);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0], (HpRaceProbe{1, 1, 0, 0, 4, 0, 12, "a.c"}));
  EXPECT_EQ(first[1].offset, 4);
  // The same destinations in another seed, or another superstep: nothing new.
  EXPECT_TRUE(new_probes({"1/1/0/0/4/0/12/a.c", "3/1/0/4/4/0/13/a.c"}, probed).empty());
  // Another caller, or another target, is another race.
  EXPECT_EQ(new_probes({"1/1/0/0/4/2/12/a.c", "1/2/0/0/4/0/12/a.c"}, probed).size(), 2u);
}

TEST(HpRaceProbe, MalformedEntriesAreSkipped) {
  std::set<std::string> probed;
  EXPECT_TRUE(new_probes({"1/1/0", "x/1/0/0/4/0/12/a.c", ""}, probed).empty());
  EXPECT_EQ(new_probes({"2/1/0/0/8/0/0/"}, probed).size(), 1u);  // no call site known
}
