#include "oracles/capture/packed_journal.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace gemini_oracle::capture {
namespace {

std::size_t TakeCount(std::string_view& in) {
  std::size_t n = 0;
  std::memcpy(&n, in.data(), sizeof n);
  in.remove_prefix(sizeof n);
  return n;
}

std::string TakeField(std::string_view& in) {
  const std::size_t n = TakeCount(in);
  std::string field(in.substr(0, n));
  in.remove_prefix(n);
  return field;
}

}  // namespace

void PackCount(std::string& packed, std::size_t count) {
  packed.append(reinterpret_cast<const char*>(&count), sizeof count);
}

void PackField(std::string& packed, std::string_view field) {
  PackCount(packed, field.size());
  packed.append(field);
}

void PackedJournal::Append(std::size_t order, bool scripted, std::string& packed) {
  Entry entry{order, nullptr, packed.size(), scripted};
  if (packed.size() > kFirstBlock) {
    large_.push_back(std::move(packed));
    entry.data = large_.back().data();
  } else {
    if (blocks_.empty() || block_used_ + packed.size() > block_size_) {
      block_size_ = std::clamp(2 * block_size_, kFirstBlock, kLastBlock);
      blocks_.push_back(std::make_unique_for_overwrite<char[]>(block_size_));
      block_used_ = 0;
    }
    char* at = blocks_.back().get() + block_used_;
    std::memcpy(at, packed.data(), packed.size());
    block_used_ += packed.size();
    entry.data = at;
  }
  entries_.push_back(entry);
}

JournalEntry PackedJournal::At(std::size_t index) const {
  const Entry& packed = entries_[index];
  JournalEntry entry;
  entry.order = packed.order;
  entry.index = index;
  entry.scripted = packed.scripted;
  std::string_view in(packed.data, packed.size);
  entry.method = TakeField(in);
  entry.path = TakeField(in);
  entry.query = TakeField(in);
  entry.headers.resize(TakeCount(in));
  for (auto& [name, value] : entry.headers) {
    name = TakeField(in);
    value = TakeField(in);
  }
  entry.body = TakeField(in);
  return entry;
}

}  // namespace gemini_oracle::capture
