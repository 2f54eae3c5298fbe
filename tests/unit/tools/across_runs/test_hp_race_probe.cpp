// tools/across_runs/hp_race_probe: which of a run's noted hpput destinations the session looks at
// again. A destination is known by all but its superstep; a malformed entry is skipped.
#include "tools/across_runs/hp_race_probe.hpp"

#include <gtest/gtest.h>

using bspcheck::HpRaceProbe;
using bspcheck::cli::new_probes;

TEST(HpRaceProbe, ADestinationLookedAtWithoutAFindingIsNotLookedAtAgain) {
  std::set<std::string> probed;
  const auto first = new_probes({"1/1/0/0/4/0/12/a.c", "1/1/0/4/4/0/13/a.c", "2/1/0/4/4/0/13/a.c"}, probed);
  ASSERT_EQ(first.probes.size(), 2u);  // the third is the second in a later superstep
  EXPECT_EQ(first.probes[0], (HpRaceProbe{1, 1, 0, 0, 4, 0, 12, "a.c"}));
  EXPECT_EQ(first.probes[1].offset, 4);
  // Not looked at yet (or looked at with a finding, which the session does not record): again.
  EXPECT_EQ(new_probes({"1/1/0/0/4/0/12/a.c"}, probed).probes.size(), 1u);
  probed.insert(first.keys.begin(), first.keys.end());
  // The same destinations in another seed, or another superstep: nothing new.
  EXPECT_TRUE(new_probes({"1/1/0/0/4/0/12/a.c", "3/1/0/4/4/0/13/a.c"}, probed).probes.empty());
  // Another caller, or another target, is another race.
  EXPECT_EQ(new_probes({"1/1/0/0/4/2/12/a.c", "1/2/0/0/4/0/12/a.c"}, probed).probes.size(), 2u);
}

TEST(HpRaceProbe, MalformedEntriesAreSkipped) {
  const std::set<std::string> probed;
  EXPECT_TRUE(new_probes({"1/1/0", "x/1/0/0/4/0/12/a.c", ""}, probed).probes.empty());
  EXPECT_EQ(new_probes({"2/1/0/0/8/0/0/"}, probed).probes.size(), 1u);  // no call site known
}
