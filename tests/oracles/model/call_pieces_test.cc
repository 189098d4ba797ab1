// The judges' own reading of a call in pieces (INTERPRETING §5.6): one call per opening part,
// its arguments assembled from every partialArgs entry, a mark where the grammar breaks.
#include "oracles/model/call_pieces.h"

#include <gtest/gtest.h>

#include "oracles/model/server_answered.h"

namespace gemini_oracle::model {
namespace {

Json Parts(const char* text) { return ParseJson(text); }

// The brief's example: four parts, one call f(id c1, {"city": "Paris"}).
constexpr const char* kParis = R"([
  {"functionCall": {"name": "f", "id": "c1", "willContinue": true}, "thoughtSignature": "c2ln"},
  {"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "Par",
                                     "willContinue": true}], "willContinue": true}},
  {"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "is"}],
                    "willContinue": true}},
  {"functionCall": {}}])";

// Reads four pieces as one call with its name, id and the arguments they assemble.
TEST(CallPieces, ReadsPiecesAsOneCall) {
  const TurnCalls turn = GroupCalls(Parts(kParis));
  ASSERT_EQ(turn.calls.size(), 1u);
  EXPECT_FALSE(turn.malformed) << *turn.malformed;
  EXPECT_TRUE(turn.pieced);
  EXPECT_EQ(turn.calls[0].pieces, (std::vector<std::size_t>{0, 1, 2, 3}));
  EXPECT_EQ(turn.calls[0].call,
            ParseJson(R"({"name": "f", "id": "c1", "args": {"city": "Paris"}})"));
  EXPECT_EQ(CallPositions(Parts(kParis)), (std::vector<std::size_t>{0}));
  EXPECT_TRUE(CallAt(Parts(kParis), 1).is_null());
}

// Leaves a call sent whole exactly as it is, and counts whole calls around a call in pieces.
TEST(CallPieces, WholeCallsStayAsSent) {
  const Json parts = Parts(R"([
    {"functionCall": {"name": "g", "args": [1, 2]}},
    {"text": "between"},
    {"functionCall": {"name": "f", "willContinue": true}},
    {"functionCall": {"partialArgs": [{"jsonPath": "$.n", "numberValue": 1.0}]}},
    {"functionCall": {"name": "h"}}])");
  const TurnCalls turn = GroupCalls(parts);
  ASSERT_EQ(turn.calls.size(), 3u);
  EXPECT_FALSE(turn.malformed);
  EXPECT_EQ(turn.calls[0].call, ParseJson(R"({"name": "g", "args": [1, 2]})"));
  EXPECT_EQ(turn.calls[1].pieces, (std::vector<std::size_t>{2, 3}));
  EXPECT_TRUE(turn.calls[1].call["args"]["n"].is_number_float());  // kind as written
  EXPECT_EQ(turn.calls[2].call, ParseJson(R"({"name": "h"})"));
  EXPECT_FALSE(turn.calls[2].call.contains("args"));
  const Json whole = WholeCallParts(parts);
  EXPECT_EQ(whole[3], Json::object());
  EXPECT_EQ(whole[2]["functionCall"], ParseJson(R"({"name": "f", "args": {"n": 1.0}})"));
  EXPECT_EQ(CallPositions(whole), CallPositions(parts));
}

// Paths: member and index steps, bracketed names with escapes, containers created on the way;
// the first piece's args are the start.
TEST(CallPieces, AppliesMemberAndIndexPaths) {
  const TurnCalls turn = GroupCalls(Parts(R"([
    {"functionCall": {"name": "f", "args": {"keep": true}, "willContinue": true}},
    {"functionCall": {"partialArgs": [
      {"jsonPath": "$.a.b[0]", "stringValue": "x"},
      {"jsonPath": "$.a.b[1]", "boolValue": false},
      {"jsonPath": "$['we ird'][\"q\\\"t\"]", "nullValue": "NULL_VALUE"},
      {"jsonPath": "$.a.b[0]", "stringValue": "x"},
      {"jsonPath": "$.n", "numberValue": 3}]}}])"));
  ASSERT_EQ(turn.calls.size(), 1u);
  EXPECT_FALSE(turn.malformed) << *turn.malformed;
  EXPECT_EQ(turn.calls[0].call["args"],
            ParseJson(R"({"keep": true, "a": {"b": ["x", false]}, "we ird": {"q\"t": null},
                          "n": 3})"));
  EXPECT_TRUE(turn.calls[0].call["args"]["n"].is_number_integer());
}

// Marks every break of the grammar with its code.
TEST(CallPieces, MarksWhereTheGrammarBreaks) {
  const auto code = [](const char* parts) {
    const TurnCalls turn = GroupCalls(ParseJson(parts));
    return turn.malformed.value_or("");
  };
  EXPECT_EQ(code(R"([{"functionCall": {}}])"), "response.call_piece_orphan");
  EXPECT_EQ(code(R"([{"functionCall": {"name": "f", "willContinue": true}},
                     {"text": "x"}, {"functionCall": {}}])"),
            "response.call_pieces_interleaved");
  EXPECT_EQ(code(R"([{"functionCall": {"name": "f", "willContinue": true}},
                     {"functionCall": {"name": "g"}}])"),
            "response.call_pieces_interleaved");
  EXPECT_EQ(code(R"([{"functionCall": {"name": "f", "willContinue": true}},
                     {"functionCall": {"name": "f"}}])"),
            "response.call_name_repeated");
  for (const char* path :
       {"$", "$.*", "$..a", "$[-1]", "$[01]", "$[1]", "$.a[0:1]", "a", "$['a','b']", "$[?@.a]"}) {
    const std::string parts = std::string(R"([{"functionCall": {"name": "f", "partialArgs": [
        {"jsonPath": ")") + path +
                              R"(", "stringValue": "v"}]}}])";
    EXPECT_EQ(code(parts.c_str()), "response.partial_arg_path") << path;
  }
  // §5.6's bounds: 255 steps are a path, 256 are not (a 120,000-step path read recursively
  // would overflow the stack); an index of 4096 is beyond them.
  const auto deep = [&](int steps) {
    std::string path = "$";
    for (int i = 0; i < steps; ++i) path += ".a";
    return code((std::string(R"([{"functionCall": {"name": "f", "partialArgs": [{"jsonPath": ")") +
                 path + R"(", "nullValue": null}]}}])")
                    .c_str());
  };
  EXPECT_EQ(deep(255), "");
  EXPECT_EQ(deep(256), "response.partial_arg_path");
  EXPECT_EQ(deep(120000), "response.partial_arg_path");
  EXPECT_EQ(code(R"([{"functionCall": {"name": "f", "partialArgs": [
                     {"jsonPath": "$.l[4096]", "nullValue": null}]}}])"),
            "response.partial_arg_path");
  EXPECT_EQ(code(R"([{"functionCall": {"name": "f", "args": {"a": 1}, "partialArgs": [
                     {"jsonPath": "$.a.b", "stringValue": "v"}]}}])"),
            "response.partial_arg_path");
  EXPECT_EQ(code(R"([{"functionCall": {"name": "f", "args": {"a": 1}, "partialArgs": [
                     {"jsonPath": "$.a", "numberValue": 2}]}}])"),
            "response.partial_arg_conflict");
  EXPECT_EQ(code(R"([{"functionCall": {"name": "f", "partialArgs": [
                     {"jsonPath": "$.a", "stringValue": "v", "boolValue": true}]}}])"),
            "response.partial_arg_conflict");
  EXPECT_EQ(code(R"([{"functionCall": {"name": "f", "partialArgs": [
                     {"jsonPath": "$.a", "stringValue": "v", "willContinue": true},
                     {"jsonPath": "$.a", "numberValue": 1}]}}])"),
            "response.partial_arg_conflict");
  EXPECT_EQ(code(R"([{"functionCall": {"name": "f", "willContinue": true}}])"),
            "response.call_unfinished");
  EXPECT_EQ(code(R"([{"functionCall": {"name": "f", "partialArgs": [
                     {"jsonPath": "$.a", "stringValue": "v", "willContinue": true}]}}])"),
            "response.call_unfinished");
  EXPECT_EQ(code(R"([{"functionCall": {"name": "f", "id": "c1", "willContinue": true}},
                     {"functionCall": {"id": "c2"}}])"),
            "native_id.malformed");
  EXPECT_EQ(code(R"([{"functionCall": {"name": "f", "willContinue": true}},
                     {"functionCall": {"id": "c2", "willContinue": true}},
                     {"functionCall": {"id": "c3"}}])"),
            "native_id.malformed");
  // A later piece may repeat the call's id; an entry without a value only ends a value.
  EXPECT_EQ(code(R"([{"functionCall": {"name": "f", "id": "c1", "willContinue": true}},
                     {"functionCall": {"id": "c1", "partialArgs": [
                       {"jsonPath": "$.a", "stringValue": "v", "willContinue": true},
                       {"jsonPath": "$.a"}]}}])"),
            "");
}

// The first break a turn's reading found ("" for none).
std::string Code(const std::string& parts) {
  return GroupCalls(ParseJson(parts)).malformed.value_or("");
}

// One call f opened by `first` (its opening functionCall's members after the name), then one
// piece per element of `pieces` (each a piece's members), then a closing `{}`.
std::string OneCall(const std::string& first, std::vector<std::string> pieces) {
  std::string text = R"([{"functionCall": {"name": "f", "willContinue": true)" +
                     (first.empty() ? "" : ", " + first) + "}}";
  for (const std::string& piece : pieces) {
    text += R"(, {"functionCall": {"willContinue": true, )" + piece + "}}";
  }
  return text + R"(, {"functionCall": {}}])";
}

// A piece holding the one partialArgs entry `entry`.
std::string Entry(const std::string& entry) { return R"("partialArgs": [)" + entry + "]"; }

// The args the one call of `parts` assembled (null when the reading broke).
Json ArgsOf(const std::string& parts) {
  const TurnCalls turn = GroupCalls(ParseJson(parts));
  if (turn.malformed || turn.calls.size() != 1) return nullptr;
  return turn.calls[0].call.value("args", Json(nullptr));
}

// §5.6: "A path set once and not continued keeps its value": a finished string announced as
// continuing (an entry without a value, or the same value again, with willContinue) and then
// continued is a conflict; a string continued while open appends.
TEST(CallPieces, FinishedValueIsNeverContinued) {
  const std::string ab = Entry(R"({"jsonPath": "$.s", "stringValue": "ab"})");
  const std::string cd = Entry(R"({"jsonPath": "$.s", "stringValue": "cd"})");
  EXPECT_EQ(Code(OneCall("", {ab, Entry(R"({"jsonPath": "$.s", "willContinue": true})"), cd})),
            "response.partial_arg_conflict");
  EXPECT_EQ(Code(OneCall("", {ab, Entry(R"({"jsonPath": "$.s", "stringValue": "ab",
                                            "willContinue": true})"),
                              cd})),
            "response.partial_arg_conflict");
  // A finished value given in the first piece's args is finished the same way.
  EXPECT_EQ(Code(OneCall(R"("args": {"s": "ab"})",
                         {Entry(R"({"jsonPath": "$.s", "willContinue": true})"), cd})),
            "response.partial_arg_conflict");
  // Positive controls: continued while open it appends; the same value again is accepted;
  // an entry without a value ends a continued one, announced first or not.
  const std::string open_ab = Entry(R"({"jsonPath": "$.s", "stringValue": "ab",
                                        "willContinue": true})");
  EXPECT_EQ(ArgsOf(OneCall("", {open_ab, cd})), ParseJson(R"({"s": "abcd"})"));
  EXPECT_EQ(ArgsOf(OneCall("", {ab, ab})), ParseJson(R"({"s": "ab"})"));
  EXPECT_EQ(ArgsOf(OneCall("", {Entry(R"({"jsonPath": "$.s", "willContinue": true})"), open_ab, cd,
                                Entry(R"({"jsonPath": "$.s"})"), ab})),
            nullptr);  // "abcd" finished, then "ab": another value
  EXPECT_EQ(ArgsOf(OneCall("", {Entry(R"({"jsonPath": "$.s", "willContinue": true})"), open_ab,
                                Entry(R"({"jsonPath": "$.s"})")})),
            ParseJson(R"({"s": "ab"})"));
}

// Values compare kind-exactly (§5.6, §8.3): 50 and 50.0 differ, 0.0 and -0.0 differ, 1 and
// true differ; the same kind and value is accepted.
TEST(CallPieces, ComparesValuesKindExactly) {
  const auto twice = [](const char* a, const char* b) {
    return Code(
        OneCall("", {Entry(std::string(R"({"jsonPath": "$.n", "numberValue": )") + a + "}"),
                     Entry(std::string(R"({"jsonPath": "$.n", "numberValue": )") + b + "}")}));
  };
  EXPECT_EQ(twice("50", "50.0"), "response.partial_arg_conflict");
  EXPECT_EQ(twice("50.0", "50"), "response.partial_arg_conflict");
  EXPECT_EQ(twice("0.0", "-0.0"), "response.partial_arg_conflict");
  EXPECT_EQ(twice("50", "50"), "");
  EXPECT_EQ(twice("50.0", "50.0"), "");
  EXPECT_EQ(twice("-0.0", "-0.0"), "");
  EXPECT_EQ(twice("18446744073709551615", "18446744073709551615"), "");
  EXPECT_EQ(
      Code(OneCall(R"("args": {"n": 1})", {Entry(R"({"jsonPath": "$.n", "boolValue": true})")})),
      "response.partial_arg_conflict");
  // A later piece's args member is a value like any other: {} and [] differ.
  EXPECT_EQ(Code(OneCall(R"("args": {"o": {}})", {R"("args": {"o": []})"})),
            "response.partial_arg_conflict");
  EXPECT_EQ(
      Code(OneCall(R"("args": {"o": {"a": [1, 2.5]}})", {R"("args": {"o": {"a": [1, 2.5]}})"})),
      "");
}

// A continued value of another kind than string may only be given again, equal.
TEST(CallPieces, ContinuedNonStringGivenAgainEqual) {
  const std::string five = Entry(R"({"jsonPath": "$.n", "numberValue": 5, "willContinue": true})");
  EXPECT_EQ(ArgsOf(OneCall("", {five, Entry(R"({"jsonPath": "$.n", "numberValue": 5})")})),
            ParseJson(R"({"n": 5})"));
  EXPECT_EQ(Code(OneCall("", {five, Entry(R"({"jsonPath": "$.n", "numberValue": 6})")})),
            "response.partial_arg_conflict");
  EXPECT_EQ(Code(OneCall("", {five, Entry(R"({"jsonPath": "$.n", "numberValue": 5.0})")})),
            "response.partial_arg_conflict");
  EXPECT_EQ(Code(OneCall("", {five, Entry(R"({"jsonPath": "$.n", "stringValue": "5"})")})),
            "response.partial_arg_conflict");
  EXPECT_EQ(ArgsOf(OneCall("", {Entry(R"({"jsonPath": "$.b", "boolValue": false,
                                          "willContinue": true})"),
                                Entry(R"({"jsonPath": "$.b", "boolValue": false})")})),
            ParseJson(R"({"b": false})"));
}

// An entry without a value sets nothing, but its whole path, the last step too, is a path.
TEST(CallPieces, ChecksTheWholePathOfAnEntryWithoutValue) {
  EXPECT_EQ(Code(OneCall(R"("args": {"l": []})", {Entry(R"({"jsonPath": "$.l[3]"})")})),
            "response.partial_arg_path");
  EXPECT_EQ(Code(OneCall(R"("args": {"s": "x"})", {Entry(R"({"jsonPath": "$.s.x"})")})),
            "response.partial_arg_path");
  EXPECT_EQ(Code(OneCall(R"("args": {"s": "x"})", {Entry(R"({"jsonPath": "$.s[0]"})")})),
            "response.partial_arg_path");
  EXPECT_EQ(Code(OneCall("", {Entry(R"({"jsonPath": "$.m[1]"})")})),
            "response.partial_arg_path");  // a list not made yet has no element 1
  EXPECT_EQ(Code(OneCall("", {Entry(R"({"jsonPath": "$.m[0][2]"})")})),
            "response.partial_arg_path");
  // Positive controls: the next element, a missing member, containers not made yet; nothing
  // is created.
  EXPECT_EQ(ArgsOf(OneCall(R"("args": {"l": [], "o": {}})",
                           {Entry(R"({"jsonPath": "$.l[0]"})"), Entry(R"({"jsonPath": "$.o.x"})"),
                            Entry(R"({"jsonPath": "$.m[0].a[0]"})")})),
            ParseJson(R"({"l": [], "o": {}})"));
}

// §5.6 "Shapes": anything but the grammar's members and kinds is function_call_malformed.
TEST(CallPieces, MarksShapesAsMalformed) {
  const std::string kMalformed = "response.function_call_malformed";
  for (const char* entry :
       {R"({"jsonPath": "$.a", "nullValue": "NULL"})", R"({"jsonPath": "$.a", "nullValue": 0})",
        R"({"jsonPath": "$.a", "nullValue": {}})",
        R"({"jsonPath": "$.a", "stringValue": "v", "willContinue": "true"})",
        R"({"jsonPath": "$.a", "stringValue": "v", "willContinue": 1})",
        R"({"jsonPath": 5, "stringValue": "v"})", R"({"jsonPath": ["$.a"], "stringValue": "v"})",
        R"({"jsonPath": "$.a", "stringValue": 5})", R"({"jsonPath": "$.a", "numberValue": "5"})",
        R"({"jsonPath": "$.a", "boolValue": "true"})", R"({"jsonPath": "$.a", "boolValue": null})",
        R"("$.a")", R"(5)", R"([])"}) {
    EXPECT_EQ(Code(OneCall("", {Entry(entry)})), kMalformed) << entry;
  }
  EXPECT_EQ(Code(OneCall("", {R"("partialArgs": {"jsonPath": "$.a", "stringValue": "v"})"})),
            kMalformed);
  EXPECT_EQ(Code(OneCall("", {R"("partialArgs": "x")"})), kMalformed);
  EXPECT_EQ(Code(OneCall("", {R"("args": "x")"})), kMalformed);
  EXPECT_EQ(Code(R"([{"functionCall": {"name": "f", "willContinue": "yes"}}])"), kMalformed);
  EXPECT_EQ(Code(R"([{"functionCall": {"name": "f", "willContinue": true}},
                     {"functionCall": {"willContinue": 0}}])"),
            kMalformed);
  EXPECT_EQ(Code(R"([{"functionCall": "f"}])"), kMalformed);
  EXPECT_EQ(Code(R"([{"functionCall": null}])"), kMalformed);
  EXPECT_EQ(Code(R"([{"functionCall": {"name": "f", "willContinue": true}},
                     {"functionCall": ["x"]}])"),
            kMalformed);
  // A jsonPath that is absent is no path (§6's partial_arg_path), not a shape.
  EXPECT_EQ(Code(OneCall("", {Entry(R"({"stringValue": "v"})")})), "response.partial_arg_path");
  // Positive controls: both forms of null, booleans, numbers of each kind, willContinue false.
  EXPECT_EQ(ArgsOf(OneCall("", {Entry(R"({"jsonPath": "$.a", "nullValue": null})"),
                                Entry(R"({"jsonPath": "$.b", "nullValue": "NULL_VALUE",
                                          "willContinue": false})"),
                                Entry(R"({"jsonPath": "$.c", "boolValue": true})"),
                                Entry(R"({"jsonPath": "$.d", "numberValue": -1.5})")})),
            ParseJson(R"({"a": null, "b": null, "c": true, "d": -1.5})"));
  EXPECT_EQ(Code(R"([{"functionCall": {"name": "f", "willContinue": false}}])"), "");
}

// A nameless part while no call is open is an orphan piece whatever members it holds.
TEST(CallPieces, NamelessPartWithoutOpenCallIsAnOrphan) {
  for (const char* part :
       {R"({"functionCall": {"args": {"a": 1}}})", R"({"functionCall": {"id": "x"}})",
        R"({"functionCall": {}})", R"({"functionCall": {"partialArgs": []}})"}) {
    EXPECT_EQ(Code(std::string("[") + part + "]"), "response.call_piece_orphan") << part;
    EXPECT_EQ(Code(std::string(R"([{"functionCall": {"name": "g"}}, )") + part + "]"),
              "response.call_piece_orphan")
        << part;
  }
  // Positive control: the same parts as pieces of an open call.
  EXPECT_EQ(Code(R"([{"functionCall": {"name": "f", "id": "x", "willContinue": true}},
                     {"functionCall": {"args": {"a": 1}, "willContinue": true}},
                     {"functionCall": {"id": "x"}}])"),
            "");
}

// A later piece's args: each member set like a non-continuing entry of `$.member`, before
// that piece's partialArgs.
TEST(CallPieces, AppliesLaterPieceArgs) {
  EXPECT_EQ(ArgsOf(OneCall(R"("args": {"k": 1})",
                           {R"("args": {"a": "x", "o": {"p": [1, 2.0]}, "k": 1})",
                            Entry(R"({"jsonPath": "$.o.q", "boolValue": true})")})),
            ParseJson(R"({"k": 1, "a": "x", "o": {"p": [1, 2.0], "q": true}})"));
  EXPECT_TRUE(ArgsOf(OneCall("", {R"("args": {"f": 2.0})"})).at("f").is_number_float());
  // A member continuing from an entry: its string appends and ends the value.
  EXPECT_EQ(ArgsOf(OneCall("", {Entry(R"({"jsonPath": "$.s", "stringValue": "ab",
                                          "willContinue": true})"),
                                R"("args": {"s": "cd"})"})),
            ParseJson(R"({"s": "abcd"})"));
  // Negative controls: another value for a kept one; a value it finished continued; applied
  // before the same piece's entries.
  EXPECT_EQ(Code(OneCall(R"("args": {"k": 1})", {R"("args": {"k": 2})"})),
            "response.partial_arg_conflict");
  EXPECT_EQ(
      Code(OneCall("", {R"("args": {"s": "ab"})", Entry(R"({"jsonPath": "$.s", "stringValue": "cd",
                                        "willContinue": true})")})),
      "response.partial_arg_conflict");
  EXPECT_EQ(Code(OneCall("", {R"("args": {"s": "ab"}, "partialArgs": [
                                   {"jsonPath": "$.s", "stringValue": "ab", "willContinue": true}])"})),
            "response.partial_arg_conflict");
  EXPECT_EQ(Code(OneCall("", {R"("args": {"s": 1})", Entry(R"({"jsonPath": "$.s.t",
                                                                "numberValue": 1})")})),
            "response.partial_arg_path");
}

// RFC 9535 blank space (space, tab, LF, CR) before a segment, never after the last one.
TEST(CallPieces, AllowsBlankSpaceBeforeSegmentsOnly) {
  const auto path = [](const char* json_path) {
    return Code(OneCall(
        "", {Entry(std::string(R"({"jsonPath": ")") + json_path + R"(", "stringValue": "v"})")}));
  };
  // (JSON escapes: the path is written into a JSON text.)
  for (const char* good : {"$ .city", "$\\t.city", "$\\n.a \\r['b']", "$.a [0]", "$.l[ 0 ]",
                           "$[ 'a' ]", "$ ['a'] .b"}) {
    EXPECT_EQ(path(good), "") << good;
  }
  for (const char* bad : {"$.city ", "$.city\\t", "$.l[0] ", "$ ", " $.a", "$. city", "$.a\\n"}) {
    EXPECT_EQ(path(bad), "response.partial_arg_path") << bad;
  }
  EXPECT_EQ(ArgsOf(OneCall("", {Entry(R"({"jsonPath": "$ .city", "stringValue": "v"})")})),
            ParseJson(R"({"city": "v"})"));
}

// A generated turn of 20,000 entries reads in one pass (figures: bench/call_pieces_bench.cc;
// nothing timed here): members one per piece, a string continued over every entry, and 2,000
// calls looked up at every position from one reading.
TEST(CallPieces, ReadsALargeTurn) {
  constexpr std::size_t kEntries = 20000;
  Json members = Json::array();
  Json string = Json::array();
  members.push_back(ParseJson(R"({"functionCall": {"name": "f", "willContinue": true}})"));
  string.push_back(members[0]);
  for (std::size_t i = 0; i < kEntries; ++i) {
    Json fc = {{"willContinue", true}};
    fc["partialArgs"] =
        Json::array({Json{{"jsonPath", "$.k" + std::to_string(i)}, {"numberValue", i}}});
    members.push_back(Json{{"functionCall", fc}});
    fc["partialArgs"] = Json::array(
        {Json{{"jsonPath", "$.s"}, {"stringValue", "ab"}, {"willContinue", i + 1 < kEntries}}});
    string.push_back(Json{{"functionCall", fc}});
  }
  members.push_back(ParseJson(R"({"functionCall": {}})"));
  string.push_back(members.back());
  const TurnCalls many = GroupCalls(members);
  ASSERT_EQ(many.calls.size(), 1u);
  EXPECT_FALSE(many.malformed);
  EXPECT_EQ(many.calls[0].call["args"].size(), kEntries);
  EXPECT_EQ(many.calls[0].call["args"]["k19999"], 19999);
  const TurnCalls one = GroupCalls(string);
  ASSERT_EQ(one.calls.size(), 1u);
  EXPECT_FALSE(one.malformed);
  EXPECT_EQ(one.calls[0].call["args"]["s"].get<std::string>().size(), 2 * kEntries);

  Json calls = Json::array();
  for (std::size_t c = 0; c < 2000; ++c) {
    calls.push_back(
        Json{{"functionCall", {{"name", "f" + std::to_string(c)}, {"willContinue", true}}}});
    for (std::size_t i = 0; i < 10; ++i) {
      Json fc = Json::object();
      fc["partialArgs"] =
          Json::array({Json{{"jsonPath", "$.k" + std::to_string(i)}, {"numberValue", c}}});
      if (i < 9) fc["willContinue"] = true;
      calls.push_back(Json{{"functionCall", fc}});
    }
  }
  const std::vector<std::size_t> positions = CallPositions(calls);
  ASSERT_EQ(positions.size(), 2000u);
  EXPECT_EQ(PendingCallPositions(calls), positions);
  const std::vector<Json> at = CallsAt(calls, positions);
  ASSERT_EQ(at.size(), 2000u);
  EXPECT_EQ(at[1999]["name"], "f1999");
  EXPECT_EQ(at[1999]["args"]["k9"], 1999);
  EXPECT_EQ(CallAt(calls, positions[5]), at[5]);
  EXPECT_TRUE(CallAt(calls, 1).is_null());
}

// Goes on reading past a break: an orphan is a call of its own, an interleaving part closes
// the open call, so every part is still read (as before §5.6 where the grammar cannot place it).
TEST(CallPieces, ReadsOnPastABreak) {
  const TurnCalls turn = GroupCalls(Parts(R"([
    {"functionCall": {"name": "f", "willContinue": true}},
    {"functionCall": {"name": "g", "args": {"x": 1}}},
    {"functionCall": {"partialArgs": [{"jsonPath": "$.y", "numberValue": 2}]}}])"));
  ASSERT_EQ(turn.calls.size(), 3u);
  EXPECT_EQ(turn.calls[0].malformed.value_or(""), "response.call_pieces_interleaved");
  EXPECT_FALSE(turn.calls[1].malformed);
  EXPECT_EQ(turn.calls[2].malformed.value_or(""), "response.call_piece_orphan");
  EXPECT_EQ(turn.malformed_at, 1u);
}

// A call in pieces the server answered inside its content (ADR-226.B2) is no pending call; its
// pieces are never answered as calls (the answer matches the call by its opening's id or name).
TEST(CallPieces, ServerAnsweredCallInPiecesIsNotPending) {
  const Json parts = Parts(R"([
    {"functionCall": {"name": "f", "willContinue": true}},
    {"functionCall": {"partialArgs": [{"jsonPath": "$.q", "stringValue": "x"}]}},
    {"functionResponse": {"name": "f", "response": {}}},
    {"functionCall": {"name": "f", "args": {}}}])");
  EXPECT_EQ(CallsAnsweredInside(parts), (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(PendingCallPositions(parts), (std::vector<std::size_t>{3}));
  // Without the answer both calls are pending, each once.
  Json unanswered = parts;
  unanswered.erase(2);
  EXPECT_EQ(PendingCallPositions(unanswered), (std::vector<std::size_t>{0, 2}));
}

// An id only on a later piece is a nonempty string, which ADR-226 does not refuse ("a present
// ID on an accepted named call must be a nonempty string"): the judges read it as the call's
// id, so an implementation that binds and echoes it passes; a piece with another id after it
// still breaks the grammar.
TEST(CallPieces, TakesAnIdOnlyOnALaterPieceAsTheCallsId) {
  const TurnCalls turn = GroupCalls(ParseJson(R"([
      {"functionCall": {"name": "f", "willContinue": true}},
      {"functionCall": {"id": "late", "partialArgs": [{"jsonPath": "$.a", "numberValue": 1}],
                        "willContinue": true}},
      {"functionCall": {"id": "late"}}])"));
  ASSERT_EQ(turn.calls.size(), 1u);
  EXPECT_FALSE(turn.malformed) << *turn.malformed;
  EXPECT_EQ(turn.calls[0].call, ParseJson(R"({"name": "f", "id": "late", "args": {"a": 1}})"));
}

// A list args root that entries or a later piece's args apply to is read as ADR-224.4's
// numeric-key object, as the reference reads carried state and as a replay sends it; a whole
// call's list root stays as sent.
TEST(CallPieces, ReadsAListRootAsTheNumericKeyObject) {
  const TurnCalls opening = GroupCalls(ParseJson(R"([
      {"functionCall": {"name": "f", "args": [], "willContinue": true}},
      {"functionCall": {"partialArgs": [{"jsonPath": "$.city", "stringValue": "Linz"}]}}])"));
  ASSERT_EQ(opening.calls.size(), 1u);
  EXPECT_FALSE(opening.malformed) << *opening.malformed;
  EXPECT_EQ(opening.calls[0].call, ParseJson(R"({"name": "f", "args": {"city": "Linz"}})"));
  EXPECT_EQ(ArgsOf(OneCall(R"("args": [])", {R"("args": [1, 2])"})),
            ParseJson(R"({"0": 1, "1": 2})"));
  EXPECT_EQ(ArgsOf(OneCall(R"("args": ["a"])", {R"("args": ["a", 2])"})),
            ParseJson(R"({"0": "a", "1": 2})"));
  EXPECT_EQ(Code(OneCall(R"("args": ["a"])", {R"("args": ["b"])"})), "response.partial_arg_conflict");
  EXPECT_EQ(GroupCalls(ParseJson(R"([{"functionCall": {"name": "f", "args": [1]}}])")).calls[0].call,
            ParseJson(R"({"name": "f", "args": [1]})"));
}

}  // namespace
}  // namespace gemini_oracle::model
