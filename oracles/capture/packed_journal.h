#pragma once
// The capture server's in-memory journal of one script, kept compact.

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "oracles/capture/journal.h"

namespace gemini_oracle::capture {

/// Appends a length-prefixed field to a packed request. A packed request holds, in order:
/// the method, the path, the query, the header count (PackCount), each header's name and
/// value, the body.
void PackField(std::string& packed, std::string_view field);
void PackCount(std::string& packed, std::size_t count);
/// What PackField adds for a field of `size` bytes (PackCount adds the same for size 0).
constexpr std::size_t PackedSize(std::size_t size) { return sizeof(std::size_t) + size; }

/// Packed requests stored back to back in a few large blocks. A JournalEntry holds a dozen
/// strings, each its own allocation kept for the life of the script; under load those
/// allocations contend for the allocator's locks, which all workers share, and an append
/// here is one copy into a block instead. Not thread-safe.
class PackedJournal {
 public:
  std::size_t size() const { return entries_.size(); }
  /// Stores a packed request as entry size(). A small one is copied, a large one is moved
  /// from `packed`.
  void Append(std::size_t order, bool scripted, std::string& packed);
  /// Unpacks entry `index` < size().
  JournalEntry At(std::size_t index) const;

 private:
  struct Entry {
    std::size_t order = 0;
    const char* data = nullptr;
    std::size_t size = 0;
    bool scripted = false;
  };

  // Blocks grow from the first size to the last; an entry above the first size gets its own
  // allocation, made by the caller outside any lock.
  static constexpr std::size_t kFirstBlock = 4 * 1024;
  static constexpr std::size_t kLastBlock = 64 * 1024;

  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t block_size_ = 0;
  std::size_t block_used_ = 0;
  std::deque<std::string> large_;  // a deque never moves its strings, so `data` stays valid
  std::deque<Entry> entries_;
};

}  // namespace gemini_oracle::capture
