#include "oracles/runner/json_positions.h"

#include <gtest/gtest.h>

#include "oracles/runner/diagnostic.h"

namespace gemini_oracle::runner {
namespace {

// Formats a diagnostic in the compiler style editors jump to.
TEST(Diagnostic, FormatsFileLineColumnMessageRule) {
  EXPECT_EQ(FormatDiagnostic({"fixtures/adr-226/y_a.json", 3, 15, "clause.unknown", "bad id"}),
            "fixtures/adr-226/y_a.json:3:15: bad id [clause.unknown]");
}

// Sorts diagnostics by file, then line, then column.
TEST(Diagnostic, SortsByFileLineColumn) {
  std::vector<Diagnostic> list = {{"b.json", 1, 1, "schema", "x"},
                                  {"a.json", 2, 1, "schema", "x"},
                                  {"a.json", 1, 9, "schema", "x"},
                                  {"a.json", 1, 2, "schema", "x"}};
  SortDiagnostics(list);
  EXPECT_EQ(list[0].column, 2);
  EXPECT_EQ(list[1].column, 9);
  EXPECT_EQ(list[2].line, 2);
  EXPECT_EQ(list[3].file, "b.json");
}

// Converts byte offsets to 1-based lines and code-point columns.
TEST(JsonPositions, OffsetsBecomeLineAndColumn) {
  const std::string text = "{\n  \"é\": [1,\n    2]}";
  EXPECT_EQ(PositionOfOffset(text, 0).line, 1);
  EXPECT_EQ(PositionOfOffset(text, 0).column, 1);
  // "2" is on line 3 after four spaces.
  const TextPosition two = PositionOfOffset(text, text.find('2'));
  EXPECT_EQ(two.line, 3);
  EXPECT_EQ(two.column, 5);
  // The two-byte "é" counts as one column, so "[" is at column 8, not 9.
  const TextPosition bracket = PositionOfOffset(text, text.find('['));
  EXPECT_EQ(bracket.line, 2);
  EXPECT_EQ(bracket.column, 8);
}

// Records where each member and item starts, keyed by JSON pointer.
TEST(JsonPositions, FindsNestedMembersAndItems) {
  const JsonPositions positions("{\"a\": {\"b\": [10, {\"c\": null}]},\n \"d\": \"x\"}");
  EXPECT_TRUE(positions.Contains(""));
  EXPECT_TRUE(positions.Contains("/a/b/1/c"));
  EXPECT_EQ(positions.Find("/a/b/0").column, 14);
  EXPECT_EQ(positions.Find("/a/b/1").column, 18);
  EXPECT_EQ(positions.Find("/a/b/1/c").column, 24);
  EXPECT_EQ(positions.Find("/d").line, 2);
  EXPECT_EQ(positions.Find("/d").column, 7);
}

// Escapes "/" and "~" in keys and decodes \u escapes as the parser does.
TEST(JsonPositions, EscapesPointerTokens) {
  const JsonPositions positions(R"({"a/b": 1, "c~d": 2, "\u00e9": 3})");
  EXPECT_TRUE(positions.Contains("/a~1b"));
  EXPECT_TRUE(positions.Contains("/c~0d"));
  EXPECT_TRUE(positions.Contains("/\xC3\xA9"));
  EXPECT_EQ(EscapePointerToken("x/~y"), "x~1~0y");
}

// Falls back to the nearest existing ancestor for a pointer the document lacks.
TEST(JsonPositions, MissingPointerFallsBackToAncestor) {
  const JsonPositions positions("{\n  \"a\": {\"b\": 1}\n}");
  EXPECT_FALSE(positions.Contains("/a/zz/0"));
  EXPECT_EQ(positions.Find("/a/zz/0").line, 2);
  EXPECT_EQ(positions.Find("/a/zz/0").column, 8);
  EXPECT_EQ(positions.Find("/nothing").line, 1);
  EXPECT_EQ(positions.Find("/nothing").column, 1);
}

}  // namespace
}  // namespace gemini_oracle::runner
