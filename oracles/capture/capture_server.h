#pragma once
// A mock of the Gemini API that answers from scripts and journals every request.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "oracles/capture/journal.h"
#include "oracles/capture/script.h"

namespace gemini_oracle::capture {

/// Serves POST /s/<id>/{v1,v1beta}/models/<model>:generateContent (and, for a streamed turn,
/// :streamGenerateContent, as text/event-stream chunk by chunk) from script <id>: request k of
/// a script gets turns[k]. Anything else (exhausted script, unknown id, path or method, a turn
/// asked for on the other endpoint) gets a Google error JSON, never a 200. Every request is
/// journaled; requests outside /s/<id>/ are journaled under the empty id "". Thread-safe.
/// A client that sends Accept-Encoding gets JSON bodies compressed, as from Google.
/// Each connection gets its own worker, however many are open, and requests on different
/// scripts never wait for each other.
class CaptureServer {
 public:
  /// Listens on 127.0.0.1 on a port the kernel picks; ready when the constructor returns.
  /// Throws std::runtime_error when it cannot bind.
  CaptureServer();
  /// Stops listening, cuts short every delayed answer (ScriptedResponse::delay) and joins the
  /// workers. Destroy clients first: a client still holding an idle keep-alive connection
  /// delays this by the keep-alive timeout.
  ~CaptureServer();
  CaptureServer(const CaptureServer&) = delete;
  CaptureServer& operator=(const CaptureServer&) = delete;

  int port() const;

  /// Installs a script and returns its new id ("1", "2", ...). Ids are never reused.
  std::string AddScript(std::vector<ScriptedResponse> turns);
  /// "http://127.0.0.1:<port>/s/<id>".
  std::string BaseUrl(const std::string& script_id) const;
  /// Forgets the script and its journal; later requests under the id are unscripted. A
  /// request of the script still waiting out its delay is answered at once (503).
  void RemoveScript(const std::string& script_id);

  /// The requests journaled under the id, in arrival order.
  std::vector<JournalEntry> Journal(const std::string& script_id) const;
  std::size_t RequestCount(const std::string& script_id) const;
  std::size_t TotalRequests() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gemini_oracle::capture
