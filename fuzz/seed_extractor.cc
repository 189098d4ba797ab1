// Writes seed inputs for the fuzz targets from the fixture corpus:
//   <out>/case_loader/<stem>.json           every case file as it is
//   <out>/response_parser/<stem>.<k>.json   exchanges[k].response.body
//   <out>/transcript/<stem>.json            the case's transcript
//   <out>/sse_parser/<stem>.<k>.sse         exchanges[k].response.stream as served: a cut byte
//                                           first (the fuzzer's piece length), then the events'
//                                           `data:` lines in the stream's framing
// scripts/fuzz seeds keeps the ones that add coverage.
// Usage: fuzz_seed_extractor <fixtures folder> <out folder>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "reference_impl/json.h"

namespace fs = std::filesystem;
using gemini_oracle::DumpJson;
using gemini_oracle::Json;

namespace {

void Write(const fs::path& file, const std::string& bytes) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << bytes;
}

// The bytes the capture server serves for a stream (oracles/model/case.cc StreamScript).
std::string StreamBytes(const Json& stream) {
  const std::string framing = stream.value("framing", std::string("crlf"));
  const std::string eol = framing == "lf" ? "\n" : framing == "cr" ? "\r" : "\r\n";
  std::string bytes;
  if (!stream.contains("events") || !stream["events"].is_array()) return bytes;
  for (const Json& event : stream["events"]) {
    bytes += "data: " + (event.is_string() ? event.get<std::string>() : DumpJson(event)) + eol + eol;
  }
  return bytes;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: fuzz_seed_extractor <fixtures folder> <out folder>\n";
    return 2;
  }
  const fs::path out = argv[2];
  for (const auto& entry : fs::recursive_directory_iterator(argv[1])) {
    const fs::path& file = entry.path();
    const std::string name = file.filename().string();
    if (!entry.is_regular_file() || file.extension() != ".json" || name.size() < 3 ||
        name[1] != '_' || name.find_first_of("yni") != 0) {
      continue;
    }
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const std::string stem = file.stem().string();
    Write(out / "case_loader" / name, text.str());
    Json document;
    try {
      document = gemini_oracle::ParseJson(text.str());
    } catch (const Json::exception&) {
      continue;  // a deliberately broken case file is still a case-loader seed
    }
    if (!document.is_object()) continue;
    if (const auto transcript = document.find("transcript"); transcript != document.end()) {
      Write(out / "transcript" / (stem + ".json"), DumpJson(*transcript));
    }
    const auto exchanges = document.find("exchanges");
    if (exchanges == document.end() || !exchanges->is_array()) continue;
    for (std::size_t k = 0; k < exchanges->size(); ++k) {
      const Json& exchange = (*exchanges)[k];
      if (!exchange.is_object() || !exchange.contains("response")) continue;
      const Json& response = exchange["response"];
      if (response.is_object() && response.contains("stream") && response["stream"].is_object()) {
        Write(out / "sse_parser" / (stem + "." + std::to_string(k) + ".sse"),
              "\x07" + StreamBytes(response["stream"]));
      }
      if (!response.is_object() || !response.contains("body")) continue;
      Write(out / "response_parser" / (stem + "." + std::to_string(k) + ".json"),
            DumpJson(response["body"]));
    }
  }
  return 0;
}
