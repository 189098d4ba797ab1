#include "reference_impl/provider_error.h"

#include "reference_impl/fault.h"

namespace gemini_oracle::ref {

const std::vector<ErrorCodeInfo>& ErrorCatalogue() {
  static const std::vector<ErrorCodeInfo> catalogue = {
      // Parse time: the answer of the server.
      {"response.malformed", "ADR-226.5",
       "The response is not a GenerateContentResponse with a candidate content and a parts list."},
      {"response.function_call_malformed", "ADR-226.5",
       "A functionCall part has a name that is not a nonempty string, or its args is present "
       "but not an object."},
      {"native_id.malformed", "ADR-226.5",
       "A functionCall id in the response is present but is not a nonempty string, or a later "
       "piece of a call carries another id than its first piece."},
      {"native_id.duplicate", "ADR-226.5",
       "Two functionCall parts of one response carry the same id."},
      // A call in pieces (streamed arguments, fixtures/INTERPRETING.md §5.6): new streamed
      // capture, which ADR-226 leaves separate (ADR-226.B1).
      {"response.call_piece_orphan", "ADR-226.B1",
       "A functionCall part without a name came while no call was open."},
      {"response.call_pieces_interleaved", "ADR-226.B1",
       "Another part came between the pieces of an open call."},
      {"response.call_name_repeated", "ADR-226.B1",
       "A piece of an open call carries its name again."},
      {"response.partial_arg_path", "ADR-226.B1",
       "A partialArgs path is not a member or index path, or steps into a value of another "
       "kind."},
      {"response.partial_arg_conflict", "ADR-226.B1",
       "A partialArgs entry gives a path two values, goes on with another kind, or holds two "
       "values."},
      {"response.call_unfinished", "ADR-226.B1",
       "The answer ended while a call or one of its values was still open."},
      {"response.call_piece_id", "ADR-226.B1",
       "A later piece of a call carries an id though the call's first piece carried none."},
      // Build time: the carried transcript, refused before any contact.
      {"transcript.malformed", "ADR-224.11",
       "A message does not have the shape of the generic transcript (role, ids, calls, results)."},
      {"transcript.duplicate_tool_call_id", "ADR-226.1",
       "One assistant turn lists two tool calls with the same public id."},
      {"transcript.orphan_result", "ADR-226.3",
       "A tool result names a tool_call_id that no call of the turn it answers carries."},
      {"transcript.duplicate_result", "ADR-226.3",
       "Two tool results of one turn answer the same tool call."},
      {"transcript.missing_result", "ADR-226.7",
       "A turn's tool calls are answered only in part before the next request."},
      {"capsule.malformed", "ADR-226.7",
       "The owned Gemini capsule is not an object with an owner and a native_parts list, or a "
       "native part cannot be read (a functionCall of the wrong shape, or pieces of a call "
       "that break the grammar of calls in pieces)."},
      {"capsule.owner_mismatch", "ADR-226.7", "The capsule names another turn as its owner."},
      {"replay.native_id_malformed", "ADR-226.6",
       "A carried native functionCall id is present but is not a nonempty string, or a later "
       "piece of a carried call carries another id than its first piece."},
      {"replay.native_id_duplicate", "ADR-226.6",
       "Two carried native functionCall parts of one turn share an id."},
      {"replay.calls_mismatch", "ADR-226.13",
       "An owned turn lists generic calls that do not match its ID-less native functionCall "
       "parts one to one by name and arguments."},
      {"binding.malformed", "ADR-226.15",
       "tool_call_bindings is not a list of {tool_call_id, native_id} nonempty strings."},
      {"binding.unexpected", "ADR-226.15",
       "A turn without native ids carries a nonempty tool_call_bindings list."},
      {"binding.not_one_to_one", "ADR-226.7",
       "A public id or a native id appears in more than one binding of the turn."},
      {"binding.unknown_call", "ADR-226.7",
       "A binding names a public id that is not a tool call of the owning turn."},
      {"binding.unknown_native_id", "ADR-226.7",
       "A binding names a native id that no native functionCall part of the turn carries."},
      {"binding.incomplete", "ADR-226.7",
       "A native functionCall id of the turn, or one of its generic calls, has no binding."},
      {"binding.call_mismatch", "ADR-226.7",
       "A bound call's name or decoded arguments differ from its native part (ADR-226.8 rule)."},
      {"binding.public_id_reused", "ADR-226.10",
       "A public id bound to a native id also identifies another call in the transcript."},
      {"legacy.ambiguous", "ADR-226.12",
       "Older state without bindings has identical parallel calls with native ids."},
      {"legacy.unmatched", "ADR-226.11",
       "Older state without bindings has a call, or a native call with an id, that matches "
       "nothing by name and arguments."},
      // The exchange itself.
      {"http.transport", "",
       "The request could not be delivered or no response arrived within the timeout."},
      {"http.status", "",
       "The server answered with an HTTP error (Google error JSON kept for diagnostics)."},
      {"http.body", "", "The server answered 2xx with a body that is not JSON."},
      {"http.stream", "",
       "The streamed answer did not complete: an error object arrived mid-stream, or the "
       "stream ended inside an event, without one or before its finishReason, and the partial "
       "turn is discarded."},
      // The encrypted state store (docs/state-store.md): suspension and resume.
      {"store.url_malformed", "ADR-226.18",
       "The store URL is not sqlite:PATH or mariadb://USER@HOST:PORT/DATABASE (a password in "
       "the URL is refused)."},
      {"store.unavailable", "ADR-226.18",
       "The store could not be opened, read or written (the database's error number is given)."},
      {"store.not_found", "ADR-226.18",
       "No state is stored for this conversation (or, for maintenance, there is no store)."},
      {"store.conflict", "ADR-226.18",
       "Another writer suspended this conversation first (its version moved on); nothing was "
       "written."},
      {"store.wrong_key", "ADR-226.18",
       "The stored state is sealed under a key id the keyring does not hold."},
      {"store.tampered", "ADR-226.18",
       "The stored state does not authenticate as this conversation's row at this version "
       "(changed bytes, or a row moved from another conversation or version)."},
      {"store.malformed", "ADR-226.18",
       "The state is not a conversation state this program reads or can store exactly (format, "
       "version, members, kinds)."},
      {"store.schema_too_new", "ADR-226.18",
       "The store's schema is newer than this program, which neither reads nor writes it."},
      {"store.key_missing", "ADR-226.18",
       "No state key is configured, or the key file cannot be read or holds no key."},
      {"store.key_malformed", "ADR-226.18",
       "A state key is not 64 hex digits (the file and line or the variable is named, never the "
       "key)."},
      {"store.key_exposed", "ADR-226.18",
       "The key file may be written by its group or by others (the file and its mode are "
       "named; nothing is read from it): chmod 600 it."},
  };
  return catalogue;
}

const ErrorCodeInfo* FindErrorCode(std::string_view code) {
  for (const auto& info : ErrorCatalogue()) {
    if (info.code == code) return &info;
  }
  return nullptr;
}

namespace {

const ErrorCodeInfo& Lookup(std::string_view code) {
  if (const auto* info = FindErrorCode(code)) return *info;
  throw std::logic_error("unknown provider error code");
}

std::string Compose(const ErrorCodeInfo& info, const Position& where) {
  std::string text = "[" + std::string(info.code) + "]";
  if (!info.clause.empty()) text += " " + std::string(info.clause) + ":";
  text += " " + std::string(info.sentence);
  std::string at;
  if (where.turn) at += "turn " + std::to_string(*where.turn);
  if (where.part) at += std::string(at.empty() ? "" : ", ") + "part " + std::to_string(*where.part);
  if (!where.field.empty()) at += std::string(at.empty() ? "" : ", ") + "field " + where.field;
  if (where.native_part && where.native_part != where.part) {
    at += std::string(at.empty() ? "" : ", ") + "native part " + std::to_string(*where.native_part);
  }
  if (!at.empty()) text += " (at " + at + ")";
  return text;
}

std::string ComposeHttp(const ErrorCodeInfo& info, const HttpFailure& http) {
  std::string text = "[" + std::string(info.code) + "] " + std::string(info.sentence);
  if (http.status != 0) text += " (HTTP " + std::to_string(http.status);
  if (!http.google_status.empty()) text += " " + http.google_status;
  if (http.status != 0) text += ")";
  if (GEMINI_FAULT("errors.http_error_quotes_provider_message") && !http.provider_message.empty()) {
    text += ": " + http.provider_message;  // Google's own words, which may quote the request
  }
  return text;
}

}  // namespace

ProviderError::ProviderError(std::string_view code, Position position)
    : std::runtime_error(Compose(Lookup(code), position)),
      code_(code),
      clause_(Lookup(code).clause),
      position_(std::move(position)) {}

ProviderError::ProviderError(std::string_view code, HttpFailure http)
    : std::runtime_error(ComposeHttp(Lookup(code), http)),
      code_(code),
      clause_(Lookup(code).clause),
      http_(std::move(http)) {}

std::optional<StateLocation> ProviderError::location() const {
  // Positions with a turn index the transcript; the parser never sets one.
  if (http_ || !position_.turn) return std::nullopt;
  return StateLocation{*position_.turn, position_.native_part};
}

}  // namespace gemini_oracle::ref
