// NULL where BSPlib writes a result (bsp_get_tag's status, bsp_qsize's two counts, bsp_hpmove's
// two pointers) is an api-misuse finding at the call site: BSPlib has nowhere to put the answer,
// and silently skipping the write hides a program that then reads an uninitialised variable.
#include "unit_helpers.hpp"

using namespace unit;

namespace {

// The run's api-misuse finding, which must name the call, the NULL and the call's line.
void expect_misuse_at(const bspcheck::RunResult& r, const char* call, int line) {
  const bspcheck::Finding* f = find(r, "api-misuse");
  ASSERT_NE(f, nullptr) << r.summary();
  EXPECT_NE(f->message.find(call), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("NULL"), std::string::npos) << f->message;
  ASSERT_FALSE(f->locations.empty());
  EXPECT_EQ(f->locations.front().line, line) << r.summary();
  EXPECT_NE(f->locations.front().file.find("test_null_results.cpp"), std::string::npos);
}

// Each process sends one 4-byte message to itself, so that the next superstep has a queue.
void send_one_to_self() {
  int v = bsp_pid();
  bsp_send(bsp_pid(), nullptr, &v, sizeof v);
  bsp_sync();
}

}  // namespace

TEST(NullResults, GetTagStatusNullIsMisuse) {
  int line = 0;
  auto r = run(2, 3, [&] {
    bsp_begin(2);
    send_one_to_self();
    line = __LINE__ + 1;
    bsp_get_tag(nullptr, nullptr);
    int v = 0;
    bsp_move(&v, sizeof v);
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  expect_misuse_at(r, "bsp_get_tag", line);
}

TEST(NullResults, QsizeMessageCountNullIsMisuse) {
  int line = 0;
  auto r = run(2, 5, [&] {
    bsp_begin(2);
    int nbytes = -1;
    line = __LINE__ + 1;
    bsp_qsize(nullptr, &nbytes);
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  expect_misuse_at(r, "bsp_qsize", line);
}

TEST(NullResults, QsizeByteCountNullIsMisuseAndTheCountIsStillWritten) {
  int line = 0;
  std::vector<int> counts(2, -1);
  auto r = run(2, 7, [&] {
    bsp_begin(2);
    send_one_to_self();
    int n = -1;
    line = __LINE__ + 1;
    bsp_qsize(&n, nullptr);
    counts[bsp_pid()] = n;
    int v = 0;
    bsp_move(&v, sizeof v);
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  expect_misuse_at(r, "bsp_qsize", line);
  EXPECT_EQ(counts, (std::vector<int>{1, 1}));
}

TEST(NullResults, QsizeWithBothPointersIsClean) {
  auto r = run(2, 9, [&] {
    bsp_begin(2);
    send_one_to_self();
    int n = -1, nbytes = -1;
    bsp_qsize(&n, &nbytes);
    if (n != 1 || nbytes != 4) bsp_abort("qsize: %d messages, %d bytes", n, nbytes);
    int v = 0;
    bsp_move(&v, sizeof v);
    bsp_end();
  });
  EXPECT_TRUE(r.ok()) << r.summary();
}

TEST(NullResults, HpmoveTagPointerNullIsMisuseAndConsumesNothing) {
  int line = 0;
  std::vector<int> left(2, -1);
  auto r = run(2, 11, [&] {
    bsp_begin(2);
    send_one_to_self();
    void* payload = nullptr;
    line = __LINE__ + 1;
    bsp_hpmove(nullptr, &payload);
    int n = -1, nbytes = -1;
    bsp_qsize(&n, &nbytes);
    left[bsp_pid()] = n;
    int v = 0;
    bsp_move(&v, sizeof v);
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  expect_misuse_at(r, "bsp_hpmove", line);
  EXPECT_EQ(left, (std::vector<int>{1, 1}));
}

TEST(NullResults, HpmovePayloadPointerNullIsMisuse) {
  int line = 0;
  auto r = run(2, 13, [&] {
    bsp_begin(2);
    send_one_to_self();
    void* tag = nullptr;
    line = __LINE__ + 1;
    bsp_hpmove(&tag, nullptr);
    int v = 0;
    bsp_move(&v, sizeof v);
    bsp_end();
  });
  EXPECT_FALSE(r.ok());
  expect_misuse_at(r, "bsp_hpmove", line);
}
