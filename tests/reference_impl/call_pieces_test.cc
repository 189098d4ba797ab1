#include "reference_impl/call_pieces.h"

#include <gtest/gtest.h>

#include <string>

#include "reference_impl/provider_error.h"

// A function call in pieces (fixtures/INTERPRETING.md §5.6): the grammar, value by value.
namespace gemini_oracle::ref {
namespace {

std::vector<AssembledCall> Read(const std::string& parts) {
  return ReadFunctionCalls(ParseJson(parts));
}

// The code a reading refuses with, or "accepted".
std::string CodeOf(const std::string& parts) {
  try {
    ReadFunctionCalls(ParseJsonMarkingInexactIntegers(parts));
  } catch (const ProviderError& e) {
    return e.code();
  }
  return "accepted";
}

// The assembled args of the only call of `parts`, compact.
std::string ArgsOf(const std::string& parts) {
  const auto calls = Read(parts);
  EXPECT_EQ(calls.size(), 1u);
  return calls.empty() ? "" : DumpJson(calls[0].args);
}

// A call opened by a named piece, continued by `middle` (nameless pieces) and closed by {}.
std::string Pieces(const std::string& middle) {
  return R"([{"functionCall":{"name":"f","willContinue":true}},)" + middle +
         R"({"functionCall":{}}])";
}

std::string Piece(const std::string& entries, bool more = true) {
  return R"({"functionCall":{"partialArgs":)" + entries +
         (more ? R"(,"willContinue":true}},)" : "}},");
}

TEST(CallPieces, WholeCallsAreOnePieceEach) {
  const auto calls = Read(R"([{"text":"hi"},{"functionCall":{"name":"f","args":{"a":1}}},)"
                          R"({"functionCall":{"id":"x","name":"g"}}])");
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].pieces, std::vector<std::size_t>({1}));
  EXPECT_EQ(calls[0].name, "f");
  EXPECT_EQ(DumpJson(calls[0].args), R"({"a":1})");
  EXPECT_FALSE(calls[0].id.has_value());
  EXPECT_EQ(calls[1].pieces, std::vector<std::size_t>({2}));
  EXPECT_EQ(*calls[1].id, "x");
  EXPECT_EQ(DumpJson(calls[1].args), "{}");  // absent args: {}
}

// Every value kind, each kept as written: 50 an integer, 50.0 a float, -0.0 a float.
TEST(CallPieces, EveryValueKindAsWritten) {
  const std::string parts =
      Pieces(Piece(R"([{"jsonPath":"$.s","stringValue":"x"},{"jsonPath":"$.i","numberValue":50},)"
                   R"({"jsonPath":"$.f","numberValue":50.0},{"jsonPath":"$.z","numberValue":-0.0},)"
                   R"({"jsonPath":"$.u","numberValue":18446744073709551615},)"
                   R"({"jsonPath":"$.b","boolValue":false},{"jsonPath":"$.n","nullValue":null},)"
                   R"({"jsonPath":"$.m","nullValue":"NULL_VALUE"}])"));
  const auto calls = Read(parts);
  ASSERT_EQ(calls.size(), 1u);
  const Json& args = calls[0].args;
  EXPECT_EQ(DumpJson(args),
            R"({"s":"x","i":50,"f":50.0,"z":-0.0,"u":18446744073709551615,"b":false,)"
            R"("n":null,"m":null})");
  EXPECT_TRUE(args["i"].is_number_integer());
  EXPECT_TRUE(args["f"].is_number_float());
  EXPECT_TRUE(args["u"].is_number_unsigned());
  EXPECT_EQ(calls[0].pieces, std::vector<std::size_t>({0, 1, 2}));
}

// A string continued over many pieces, UTF-8 whole in each piece, is appended in order.
TEST(CallPieces, StringContinuedOverManyPieces) {
  std::string middle;
  for (const char* piece : {"Zü", "rich, ", "Kö", "ln ", "☀", "🌧"}) {
    middle += Piece(R"([{"jsonPath":"$.text","stringValue":")" + std::string(piece) +
                    R"(","willContinue":true}])");
  }
  middle += Piece(R"([{"jsonPath":"$.text","stringValue":"!"}])");
  EXPECT_EQ(ArgsOf(Pieces(middle)), R"({"text":"Zürich, Köln ☀🌧!"})");
  // An entry without a value ends the continued value; one may announce it, too.
  EXPECT_EQ(ArgsOf(Pieces(Piece(R"([{"jsonPath":"$.t","willContinue":true},)"
                                R"({"jsonPath":"$.t","stringValue":"a","willContinue":true},)"
                                R"({"jsonPath":"$.t","stringValue":"b","willContinue":true},)"
                                R"({"jsonPath":"$.t"}])"))),
            R"({"t":"ab"})");
}

TEST(CallPieces, QuotedNamesWithEscapes) {
  EXPECT_EQ(ArgsOf(Pieces(Piece(R"([{"jsonPath":"$['a.b']","stringValue":"1"},)"
                                R"({"jsonPath":"$[\"q\\\"\"]","stringValue":"2"},)"
                                R"({"jsonPath":"$['\\u00fc\\ud83c\\udf27']","stringValue":"3"},)"
                                R"({"jsonPath":"$[ 'sp' ]","stringValue":"4"},)"
                                R"({"jsonPath":"$.ü_1","stringValue":"5"}])"))),
            R"({"a.b":"1","q\"":"2","ü🌧":"3","sp":"4","ü_1":"5"})");
}

TEST(CallPieces, NestedValuesAssembled) {
  EXPECT_EQ(ArgsOf(Pieces(Piece(R"([{"jsonPath":"$.trip.legs[0].from","stringValue":"Graz"},)"
                                R"({"jsonPath":"$.trip.legs[0].to","stringValue":"Linz"},)"
                                R"({"jsonPath":"$.trip.legs[1].from","stringValue":"Linz"},)"
                                R"({"jsonPath":"$['trip']['legs'][1]['to']","stringValue":"Wels"},)"
                                R"({"jsonPath":"$.grid[0][0]","numberValue":1},)"
                                R"({"jsonPath":"$.grid[0][1]","numberValue":2.5}])"))),
            R"({"trip":{"legs":[{"from":"Graz","to":"Linz"},{"from":"Linz","to":"Wels"}]},)"
            R"("grid":[[1,2.5]]})");
}

// Two calls one after the other, each with its own pieces, ids and signatures.
TEST(CallPieces, TwoCallsOneAfterTheOther) {
  const auto calls = Read(
      R"([{"text":"Let me check."},)"
      R"({"functionCall":{"id":"a1","name":"f","willContinue":true},"thoughtSignature":"c2ln"},)"
      R"({"functionCall":{"id":"a1","partialArgs":[{"jsonPath":"$.x","numberValue":1}],)"
      R"("willContinue":true},"thoughtSignature":"c2lnMg=="},)"
      R"({"functionCall":{}},)"
      R"({"functionCall":{"id":"b2","name":"g","willContinue":true}},)"
      R"({"functionCall":{"partialArgs":[{"jsonPath":"$.y","boolValue":true}]}}])");
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].pieces, std::vector<std::size_t>({1, 2, 3}));
  EXPECT_EQ(*calls[0].id, "a1");
  EXPECT_EQ(DumpJson(calls[0].args), R"({"x":1})");
  EXPECT_EQ(calls[1].pieces, std::vector<std::size_t>({4, 5}));
  EXPECT_EQ(calls[1].name, "g");
  EXPECT_EQ(*calls[1].id, "b2");
  EXPECT_EQ(DumpJson(calls[1].args), R"({"y":true})");
}

TEST(CallPieces, EmptyArgumentsAndTheEmptyCloser) {
  EXPECT_EQ(ArgsOf(R"([{"functionCall":{"name":"f","willContinue":true}},{"functionCall":{}}])"),
            "{}");
  EXPECT_EQ(ArgsOf(R"([{"functionCall":{"name":"f","willContinue":true}},)"
                   R"({"functionCall":{"willContinue":false,"args":{}}}])"),
            "{}");
}

// The first piece's args, then every entry: the same value again is accepted (a recorded whole
// call repeats its args in partialArgs), another value is a conflict.
TEST(CallPieces, ArgsAndPartialArgsTogether) {
  EXPECT_EQ(
      ArgsOf(
          R"([{"functionCall":{"name":"get_weather","args":{"city":"Paris"},)"
          R"("willContinue":false,"partialArgs":[{"jsonPath":"$.city","stringValue":"Paris"}]}}])"),
      R"({"city":"Paris"})");
  EXPECT_EQ(ArgsOf(R"([{"functionCall":{"name":"f","args":{"a":{"b":1}},"willContinue":true}},)"
                   R"({"functionCall":{"partialArgs":[{"jsonPath":"$.a.c","numberValue":2}]}}])"),
            R"({"a":{"b":1,"c":2}})");
  EXPECT_EQ(CodeOf(R"([{"functionCall":{"name":"f","args":{"city":"Paris"},)"
                   R"("partialArgs":[{"jsonPath":"$.city","stringValue":"Rome"}]}}])"),
            "response.partial_arg_conflict");
  EXPECT_EQ(CodeOf(R"([{"functionCall":{"name":"f","args":{"n":50},)"
                   R"("partialArgs":[{"jsonPath":"$.n","numberValue":50.0}]}}])"),
            "response.partial_arg_conflict");
}

TEST(CallPieces, RepeatedIdOnALaterPieceIsAccepted) {
  EXPECT_EQ(CodeOf(R"([{"functionCall":{"id":"a","name":"f","willContinue":true}},)"
                   R"({"functionCall":{"id":"a"}}])"),
            "accepted");
  EXPECT_EQ(CodeOf(R"([{"functionCall":{"id":"a","name":"f","willContinue":true}},)"
                   R"({"functionCall":{"id":"b"}}])"),
            "native_id.malformed");
  // An id only on a later piece is a nonempty string, no malformed id: the reference refuses
  // it under a code of its own (INTERPRETING §5.6 leaves it open).
  EXPECT_EQ(CodeOf(R"([{"functionCall":{"name":"f","willContinue":true}},)"
                   R"({"functionCall":{"id":"b"}}])"),
            "response.call_piece_id");
}

// A list args root is refused in an answer and read, in carried state, as the numeric-key
// object before entries or a later piece's args apply to it; a whole call's list stays a list.
TEST(CallPieces, CarriedListArgsAreRepairedBeforeEntries) {
  const std::string opening =
      R"([{"functionCall":{"name":"f","args":[true],"willContinue":true}},)"
      R"({"functionCall":{"partialArgs":[{"jsonPath":"$.x","numberValue":1}]}}])";
  EXPECT_EQ(CodeOf(opening), "response.function_call_malformed");
  const auto carried = ReadFunctionCalls(ParseJson(opening), /*carried=*/true);
  ASSERT_EQ(carried.size(), 1u);
  EXPECT_EQ(DumpJson(carried[0].args), R"({"0":true,"x":1})");
  const std::string later = R"([{"functionCall":{"name":"f","args":{"x":1},"willContinue":true}},)"
                            R"({"functionCall":{"args":["a"]}}])";
  EXPECT_EQ(CodeOf(later), "response.function_call_malformed");
  EXPECT_EQ(DumpJson(ReadFunctionCalls(ParseJson(later), true).at(0).args), R"({"x":1,"0":"a"})");
  const std::string whole = R"([{"functionCall":{"name":"f","args":["a"]}}])";
  EXPECT_EQ(DumpJson(ReadFunctionCalls(ParseJson(whole), true).at(0).args), R"(["a"])");
}

TEST(CallPieces, Refusals) {
  // A nameless part while no call is open.
  EXPECT_EQ(CodeOf(R"([{"functionCall":{"partialArgs":[]}}])"), "response.call_piece_orphan");
  EXPECT_EQ(CodeOf(R"([{"functionCall":{"name":"f"}},{"functionCall":{}}])"),
            "response.call_piece_orphan");
  // Another part before the open call closes.
  EXPECT_EQ(CodeOf(R"([{"functionCall":{"name":"f","willContinue":true}},{"text":"x"},)"
                   R"({"functionCall":{}}])"),
            "response.call_pieces_interleaved");
  EXPECT_EQ(CodeOf(R"([{"functionCall":{"name":"f","willContinue":true}},)"
                   R"({"functionCall":{"name":"g"}}])"),
            "response.call_pieces_interleaved");
  // The open call's name again.
  EXPECT_EQ(CodeOf(R"([{"functionCall":{"name":"f","willContinue":true}},)"
                   R"({"functionCall":{"name":"f"}}])"),
            "response.call_name_repeated");
  // The turn ends with the call open, or with one of its values continuing.
  EXPECT_EQ(CodeOf(R"([{"functionCall":{"name":"f","willContinue":true}}])"),
            "response.call_unfinished");
  EXPECT_EQ(CodeOf(R"([{"functionCall":{"name":"f","partialArgs":)"
                   R"([{"jsonPath":"$.t","stringValue":"a","willContinue":true}]}}])"),
            "response.call_unfinished");
  // Two values in one entry; a continued string going on with a number.
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$.a","stringValue":"1","numberValue":1}])"))),
            "response.partial_arg_conflict");
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$.a","stringValue":"1","willContinue":true},)"
                                R"({"jsonPath":"$.a","numberValue":1}])"))),
            "response.partial_arg_conflict");
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$.a","stringValue":"1"},)"
                                R"({"jsonPath":"$.a","stringValue":"2"}])"))),
            "response.partial_arg_conflict");
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$.a","stringValue":"1"},)"
                                R"({"jsonPath":"$.a","stringValue":"1"}])"))),
            "accepted");
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$.a.b","numberValue":1},)"
                                R"({"jsonPath":"$.a","stringValue":"x"}])"))),
            "response.partial_arg_conflict");
  // Malformed entries.
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$.a","numberValue":"1"}])"))),
            "response.function_call_malformed");
  EXPECT_EQ(
      CodeOf(Pieces(Piece(R"([{"jsonPath":"$.a","numberValue":123456789012345678901234567890}])"))),
      "response.function_call_malformed");
  EXPECT_EQ(CodeOf(Pieces(Piece(R"({"jsonPath":"$.a"})"))), "response.function_call_malformed");
  EXPECT_EQ(CodeOf(R"([{"functionCall":{"name":"f","willContinue":"yes"}}])"),
            "response.function_call_malformed");
}

TEST(CallPieces, PathsThatAreNoMemberOrIndexPath) {
  for (const char* path : {"$",
                           "",
                           "a",
                           "$.",
                           "$..a",
                           "$.*",
                           "$[*]",
                           "$.a[*]",
                           "$[0:1]",
                           "$.a[-1]",
                           "$.a[01]",
                           "$.a[1]",
                           "$[?@.a]",
                           "$['a','b']",
                           "$.1a",
                           "$['a]",
                           "$[\"a']",
                           "$['\\\"']",
                           "$.a[4096]",
                           "$.a[99999999999999999999999]",
                           "$['\\ud800']",
                           "$['\\x']",
                           "@.a",
                           "$.a.b.[0]",
                           "$ a",
                           "$.a ",  // RFC 9535: blank space before a segment, never after
                           "$.a\t",
                           "$ ",
                           "$.a[0] ",
                           "$['a'] \n",
                           "$. a"}) {
    const std::string parts =
        Pieces(Piece(R"([{"jsonPath":)" + DumpJson(Json(path)) + R"(,"stringValue":"v"}])"));
    EXPECT_EQ(CodeOf(parts), "response.partial_arg_path") << path;
  }
  // A jsonPath that is no string is a shape (function_call_malformed); an absent one, no path.
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":1,"stringValue":"v"}])"))),
            "response.function_call_malformed");
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"stringValue":"v"}])"))), "response.partial_arg_path");
  // Stepping through a value of another kind.
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$.a","stringValue":"v"},)"
                                R"({"jsonPath":"$.a.b","stringValue":"w"}])"))),
            "response.partial_arg_path");
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$.a[0]","stringValue":"v"},)"
                                R"({"jsonPath":"$.a.b","stringValue":"w"}])"))),
            "response.partial_arg_path");
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$[0]","stringValue":"v"}])"))),
            "response.partial_arg_path");
  // The last allowed index, and depth: 255 steps are a path (args 256 deep, §2), 256 are not.
  std::string list;
  for (int i = 0; i < 4096; ++i) {
    list += R"({"jsonPath":"$.l[)" + std::to_string(i) + R"(]","numberValue":1},)";
  }
  list.pop_back();
  EXPECT_EQ(CodeOf(Pieces(Piece("[" + list + "]"))), "accepted");
  std::string deep = "$";
  for (int i = 0; i < 255; ++i) deep += ".a";
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":")" + deep + R"(","nullValue":null}])"))),
            "accepted");
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":")" + deep + R"(.a","nullValue":null}])"))),
            "response.partial_arg_path");
}

// RFC 9535 allows blank space (space, tab, LF, CR) before every segment and inside brackets.
TEST(CallPieces, BlankSpaceBeforeSegments) {
  EXPECT_EQ(ArgsOf(Pieces(Piece(R"([{"jsonPath":"$ .city","stringValue":"Graz"},)"
                                R"({"jsonPath":"$\t.trip \r\n.legs [0]\n[ 0 ]","numberValue":1},)"
                                R"({"jsonPath":"$[ 'a' ] ['b']","boolValue":true}])"))),
            R"({"city":"Graz","trip":{"legs":[[1]]},"a":{"b":true}})");
}

// A later piece's args set their members like entries of their own paths that do not
// continue: a member set before keeps its value, the same again is accepted, a string still
// continuing takes the member as its next characters.
TEST(CallPieces, LaterArgsMembersSetLikeEntries) {
  EXPECT_EQ(ArgsOf(Pieces(Piece(R"([{"jsonPath":"$.a","numberValue":1}])") +
                          R"({"functionCall":{"args":{"a":1,"b":{"c":[2]}},"willContinue":true}},)")),
            R"({"a":1,"b":{"c":[2]}})");
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$.a","numberValue":1}])") +
                          R"({"functionCall":{"args":{"a":2},"willContinue":true}},)")),
            "response.partial_arg_conflict");
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$.a","numberValue":1}])") +
                          R"({"functionCall":{"args":{"a":1.0},"willContinue":true}},)")),
            "response.partial_arg_conflict");
  // A member set by args and then an entry with another value, or a continuation.
  EXPECT_EQ(CodeOf(R"([{"functionCall":{"name":"f","willContinue":true}},)"
                   R"({"functionCall":{"args":{"a":"x"},"willContinue":true}},)"
                   R"({"functionCall":{"partialArgs":[{"jsonPath":"$.a","stringValue":"y"}]}}])"),
            "response.partial_arg_conflict");
  EXPECT_EQ(ArgsOf(Pieces(Piece(R"([{"jsonPath":"$.t","stringValue":"ab","willContinue":true}])") +
                          R"({"functionCall":{"args":{"t":"c"},"willContinue":true}},)")),
            R"({"t":"abc"})");
  // An args member whose own value continues after it is done.
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$.t","stringValue":"ab","willContinue":true}])") +
                          R"({"functionCall":{"args":{"t":"c"},"willContinue":true}},)" +
                          Piece(R"([{"jsonPath":"$.t","stringValue":"d"}])"))),
            "response.partial_arg_conflict");
  // Args of a later piece that are no object, or hold an integer beyond exact reach.
  EXPECT_EQ(CodeOf(Pieces(R"({"functionCall":{"args":[1],"willContinue":true}},)")),
            "response.function_call_malformed");
}

// A value set and done does not go on, also when the continuation is only announced (an entry
// without a value), whether an entry, the first piece's args or another path made it.
TEST(CallPieces, FinishedValueNotContinued) {
  EXPECT_EQ(CodeOf(R"([{"functionCall":{"name":"f","args":{"a":"x"},"willContinue":true}},)"
                   R"({"functionCall":{"partialArgs":[{"jsonPath":"$.a","willContinue":true},)"
                   R"({"jsonPath":"$.a","stringValue":"y"}]}}])"),
            "response.partial_arg_conflict");
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$.a","stringValue":"x"},)"
                                R"({"jsonPath":"$.a","willContinue":true}])"))),
            "response.partial_arg_conflict");
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$.a.b","numberValue":1},)"
                                R"({"jsonPath":"$.a","willContinue":true}])"))),
            "response.partial_arg_conflict");
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$.a","stringValue":"x"},)"
                                R"({"jsonPath":"$.a","stringValue":"x","willContinue":true}])"))),
            "response.partial_arg_conflict");
  // An entry without a value for a value done ends nothing and is accepted.
  EXPECT_EQ(ArgsOf(Pieces(Piece(R"([{"jsonPath":"$.a","stringValue":"x"},{"jsonPath":"$.a"}])"))),
            R"({"a":"x"})");
}

// A continued value of another kind than a string may only be given again, equal (kind-exact);
// NULL_VALUE is null.
TEST(CallPieces, ContinuedValuesOfOtherKinds) {
  EXPECT_EQ(ArgsOf(Pieces(Piece(R"([{"jsonPath":"$.n","numberValue":5,"willContinue":true},)"
                                R"({"jsonPath":"$.n","numberValue":5},)"
                                R"({"jsonPath":"$.z","nullValue":null,"willContinue":true},)"
                                R"({"jsonPath":"$.z","nullValue":"NULL_VALUE"},)"
                                R"({"jsonPath":"$.b","boolValue":true,"willContinue":true},)"
                                R"({"jsonPath":"$.b"}])"))),
            R"({"n":5,"z":null,"b":true})");
  for (const char* next : {R"("numberValue":6)", R"("numberValue":5.0)", R"("stringValue":"5")",
                           R"("nullValue":null)", R"("boolValue":true)"}) {
    EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$.n","numberValue":5,"willContinue":true},)"
                                  R"({"jsonPath":"$.n",)" +
                                  std::string(next) + "}]"))),
              "response.partial_arg_conflict")
        << next;
  }
  EXPECT_EQ(CodeOf(Pieces(Piece(R"([{"jsonPath":"$.z","nullValue":"NULL"}])"))),
            "response.function_call_malformed");
}

// Shapes: anything outside the grammar's values is function_call_malformed, before any path or
// value is looked at; a nameless part while no call is open is an orphan whatever it holds.
TEST(CallPieces, ShapesAndOrphans) {
  for (const char* entry : {R"({"jsonPath":"$.a","stringValue":1})",
                            R"({"jsonPath":"$.a","boolValue":"true"})",
                            R"({"jsonPath":"$.a","willContinue":1,"stringValue":"x"})",
                            R"({"jsonPath":["$.a"],"stringValue":"x","numberValue":1})",
                            R"({"jsonPath":"$[*]","stringValue":2})"}) {
    EXPECT_EQ(CodeOf(Pieces(Piece("[" + std::string(entry) + "]"))),
              "response.function_call_malformed")
        << entry;
  }
  EXPECT_EQ(CodeOf(Pieces(Piece("[1]"))), "response.function_call_malformed");
  EXPECT_EQ(CodeOf(Pieces(R"({"functionCall":[]},)")), "response.function_call_malformed");
  EXPECT_EQ(CodeOf(R"([{"functionCall":{"name":"f","willContinue":true}},)"
                   R"({"functionCall":{"willContinue":"no"}}])"),
            "response.function_call_malformed");
  for (const char* piece : {R"({"willContinue":"yes"})", R"({"args":[1]})", R"({"id":7})",
                            R"({"partialArgs":{}})", R"({"partialArgs":[{"jsonPath":"$.a"}]})"}) {
    EXPECT_EQ(CodeOf(R"([{"functionCall":)" + std::string(piece) + "}]"),
              "response.call_piece_orphan")
        << piece;
    EXPECT_EQ(CodeOf(R"([{"functionCall":{"name":"f"}},{"functionCall":)" + std::string(piece) +
                     "}]"),
              "response.call_piece_orphan")
        << piece;
  }
}

// Thousands of members of one object are set in near-linear time (an ordered_json member
// lookup is linear), in the order first set; the figures are in the change's report, not here.
TEST(CallPieces, ManyMembersKeepTheirOrder) {
  std::string entries;
  for (int i = 0; i < 20000; ++i) {
    entries += R"({"jsonPath":"$.m)" + std::to_string(19999 - i) + R"(","numberValue":)" +
               std::to_string(i) + "},";
  }
  entries.pop_back();
  const auto calls = Read(Pieces(Piece("[" + entries + "]") +
                                 R"({"functionCall":{"args":{"m0":19999},"willContinue":true}},)"));
  ASSERT_EQ(calls.size(), 1u);
  const Json& args = calls[0].args;
  ASSERT_EQ(args.size(), 20000u);
  EXPECT_EQ(args.begin().key(), "m19999");
  EXPECT_EQ((--args.end()).key(), "m0");
  EXPECT_EQ(args["m0"], 19999);
}

// A refusal names the part and field, never the content (ADR-226.19).
TEST(CallPieces, RefusalsNamePositionsOnly) {
  try {
    Read(R"([{"functionCall":{"name":"secret_fn","willContinue":true}},)"
         R"({"functionCall":{"partialArgs":[{"jsonPath":"$.NEEDLE_PATH","stringValue":"NEEDLE_V"},)"
         R"({"jsonPath":"$.NEEDLE_PATH","stringValue":"NEEDLE_W"}]}}])");
    FAIL() << "accepted";
  } catch (const ProviderError& e) {
    EXPECT_EQ(e.code(), "response.partial_arg_conflict");
    EXPECT_EQ(e.position().part, 1u);
    EXPECT_EQ(e.position().field, "partialArgs[1]");
    const std::string what = e.what();
    for (const char* needle : {"NEEDLE", "secret_fn"}) {
      EXPECT_EQ(what.find(needle), std::string::npos) << what;
    }
  }
}

}  // namespace
}  // namespace gemini_oracle::ref
