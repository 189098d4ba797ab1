// Prints what the encrypted state store (ADR-226.18, docs/state-store.md) costs: Suspend and
// Resume of a realistic 10-turn conversation on SQLite and, when the settings of a MariaDB
// server are present (GEMINI_ORACLE_MARIADB_*, as `eval "$(scripts/mariadb start)"` exports
// them), on MariaDB; the per-turn cost of suspending and resuming after every turn of that
// conversation; and the parts: the codec alone, sealing and opening alone. Next to them, the
// cost of building one request from the same transcript, which a turn pays without a store.
//
//   build/bin/store_bench [--rounds N] [--sqlite PATH] [--no-mariadb]
//
// Figures only; nothing is asserted. Medians over the rounds.

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "reference_impl/provider_error.h"
#include "reference_impl/request_builder.h"
#include "reference_impl/response_parser.h"
#include "reference_impl/store/conversation_state.h"
#include "reference_impl/store/sealing.h"
#include "reference_impl/store/state_store.h"
#include "tests/mariadb_settings.h"

namespace ref = gemini_oracle::ref;
using gemini_oracle::Json;
using Clock = std::chrono::steady_clock;

namespace {

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Microseconds of one call of `f`, median over `rounds`.
double MedianMicros(int rounds, const std::function<void(int)>& f) {
  std::vector<double> times;
  for (int r = 0; r < rounds; ++r) {
    const auto start = Clock::now();
    f(r);
    times.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  return Median(times);
}

std::string Filler(std::size_t size, std::mt19937& rng) {
  static constexpr char kWords[] = "abcdefghijklmnopqrstuvwxyz      ";
  std::string text;
  for (std::size_t i = 0; i < size; ++i) text += kWords[rng() % (sizeof kWords - 1)];
  return text;
}

// One turn's worth of a weather-and-calendar assistant: a user question, a model answer that
// calls a tool (native id, signature of a realistic length, nested arguments with 1.0 and {}),
// the tool's result, and the model's closing text. The states after each turn, in order.
std::vector<ref::ConversationState> TenTurnStates() {
  std::mt19937 rng(42);
  std::vector<ref::ConversationState> states;
  ref::Transcript t;
  std::uint64_t counter = 0;
  for (int turn = 1; turn <= 10; ++turn) {
    t.messages.push_back(
        ref::UserMessage("Question " + std::to_string(turn) + ": " + Filler(200, rng)));
    Json call = Json::parse(R"({"functionCall":{"name":"get_forecast","args":{
        "city":"Berlin","days":3,"units":{"temperature":"celsius","wind":"kmh"},
        "threshold":1.0,"filters":{},"hours":[6,12,18]}}})");
    call["functionCall"]["id"] = "native_" + std::to_string(turn);
    call["thoughtSignature"] = Filler(1200, rng);  // Gemini's signatures run to a kilobyte or more
    Json response = Json::object();
    response["candidates"] = Json::array({Json::object()});
    response["candidates"][0]["content"] = {{"role", "model"}, {"parts", Json::array({call})}};
    ref::Message asked = ref::ParseResponse(response, t, counter);
    counter += asked.tool_calls.size();
    const std::string call_id = asked.tool_calls.at(0).id;
    t.messages.push_back(std::move(asked));
    t.messages.push_back(ref::ToolResultMessage(
        call_id, "get_forecast",
        R"({"days":[{"t":21.0,"rain":0.1},{"t":19.5,"rain":0.0},{"t":18.0,"rain":0.6}],"note":")" +
            Filler(300, rng) + "\"}"));
    Json closing = Json::object();
    closing["candidates"] = Json::array({Json::object()});
    closing["candidates"][0]["content"] = {{"role", "model"},
                                           {"parts", Json::array({{{"text", Filler(400, rng)}}})}};
    t.messages.push_back(ref::ParseResponse(closing, t, counter));
    states.push_back(ref::StateOfTranscript(t, counter));
  }
  return states;
}

struct BackendFigures {
  double suspend_us = 0;
  double resume_us = 0;
  double per_turn_us = 0;  // suspend + resume after a turn, averaged over the 10 turns
};

BackendFigures Measure(const std::string& url, const std::vector<ref::ConversationState>& states,
                       int rounds) {
  auto store = ref::OpenStateStore(url, ref::Keyring::Ephemeral());
  const std::string prefix = "bench-" + std::to_string(std::random_device{}()) + "-";
  const ref::ConversationState& full = states.back();
  BackendFigures f;
  const std::string id = prefix + "full";
  std::uint64_t version = store->Suspend(id, full, 0);
  f.suspend_us = MedianMicros(rounds, [&](int) { version = store->Suspend(id, full, version); });
  f.resume_us = MedianMicros(rounds, [&](int) { store->Resume(id); });
  // What `run --store` does: after each turn, suspend the state and resume it as a fresh
  // adapter would, on a conversation of its own per round.
  f.per_turn_us = MedianMicros(rounds,
                               [&](int r) {
                                 const std::string conversation = prefix + std::to_string(r);
                                 std::uint64_t v = 0;
                                 for (const auto& state : states) {
                                   v = store->Suspend(conversation, state, v);
                                   v = store->Resume(conversation).version;
                                 }
                               }) /
                  static_cast<double>(states.size());
  return f;
}

void Print(const char* name, const BackendFigures& f, double build_us) {
  std::cout << std::left << std::setw(8) << name << std::right << " suspend " << std::setw(8)
            << f.suspend_us << " us   resume " << std::setw(8) << f.resume_us
            << " us   suspend+resume per turn " << std::setw(8) << f.per_turn_us << " us  ("
            << std::setprecision(1) << f.per_turn_us / build_us << "x building one request)\n"
            << std::setprecision(0);
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 200;
  std::filesystem::path sqlite_path;
  bool mariadb = true;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
      rounds = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--sqlite") == 0 && i + 1 < argc) {
      sqlite_path = argv[++i];
    } else if (std::strcmp(argv[i], "--no-mariadb") == 0) {
      mariadb = false;
    } else {
      std::cerr << "usage: store_bench [--rounds N] [--sqlite PATH] [--no-mariadb]\n";
      return 4;
    }
  }
  try {
    const auto states = TenTurnStates();
    const ref::ConversationState& full = states.back();
    const std::string text = ref::EncodeState(full);
    const ref::StateKey key = ref::Keyring::NewKey();
    const std::string ad = ref::AssociatedData("bench", 1, key.id);
    const ref::Sealed sealed = ref::Seal(text, ad, key);

    const double encode_us = MedianMicros(rounds, [&](int) { ref::EncodeState(full); });
    const double decode_us = MedianMicros(rounds, [&](int) { ref::DecodeState(text); });
    const double seal_us = MedianMicros(rounds, [&](int) { ref::Seal(text, ad, key); });
    const double open_us =
        MedianMicros(rounds, [&](int) { ref::Open(sealed.ciphertext, sealed.nonce, ad, key); });
    const double build_us = MedianMicros(
        rounds, [&](int) { ref::BuildRequest(full.transcript, ref::RequestOptions{}); });

    std::cout << std::fixed << std::setprecision(0);
    std::cout << "state: 10 turns, " << full.transcript.messages.size() << " messages, "
              << text.size() << " bytes encoded; median of " << rounds << " rounds\n";
    std::cout << "without a store: building the request of the last turn " << build_us << " us\n";
    std::cout << "codec: encode " << encode_us << " us, decode " << decode_us << " us\n";
    std::cout << "XChaCha20-Poly1305: seal " << seal_us << " us, open " << open_us << " us ("
              << std::setprecision(0) << text.size() / (seal_us > 0 ? seal_us : 1) << " MB/s)\n";

    std::filesystem::path temp;
    if (sqlite_path.empty()) {
      temp = std::filesystem::temp_directory_path() /
             ("gemini-oracle-store-bench-" + std::to_string(std::random_device{}()));
      std::filesystem::create_directories(temp);
      sqlite_path = temp / "state.sqlite3";
    }
    Print("sqlite", Measure("sqlite:" + sqlite_path.string(), states, rounds), build_us);
    if (!temp.empty()) std::filesystem::remove_all(temp);

    std::string why;
    const auto settings =
        mariadb ? gemini_oracle::testing::LoadMariaDbSettings(&why) : std::nullopt;
    if (settings) {
      settings->ExportPassword();
      Print("mariadb", Measure(settings->StoreUrl(), states, rounds), build_us);
    } else {
      std::cout << "mariadb  not measured (" << (mariadb ? why : std::string("--no-mariadb"))
                << ")\n";
    }
  } catch (const ref::ProviderError& e) {
    std::cerr << "store_bench: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
