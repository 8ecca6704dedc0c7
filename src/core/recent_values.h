// SPDX-License-Identifier: MIT
// The last few results of a pure function, kept by value (a thread's own
// copy: declare it thread_local). A key equal (operator==) to a kept one
// gives that one's value; a new key replaces the oldest. A value's address
// stays valid until the next keep().
#pragma once

namespace bwgemm {

template <class Key, class Value, int kSize>
class RecentValues {
 public:
  // NULL when `key` is not kept.
  Value* find(const Key& key) {
    for (int i = 0; i < count_; ++i)
      if (entries_[i].key == key) return &entries_[i].value;
    return nullptr;
  }

  Value* keep(const Key& key, const Value& value) {
    Entry& entry = entries_[next_];
    entry = {key, value};
    next_ = (next_ + 1) % kSize;
    if (count_ < kSize) ++count_;
    return &entry.value;
  }

 private:
  struct Entry {
    Key key;
    Value value;
  };
  Entry entries_[kSize]{};
  int count_ = 0;
  int next_ = 0;
};

}  // namespace bwgemm
