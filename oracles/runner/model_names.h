#pragma once
// The runner works on the case model (oracles/model/), which sits below it and the judges.

#include "oracles/model/case.h"
#include "oracles/model/driver_report.h"

namespace gemini_oracle::runner {

using model::Actions;
using model::ApprovalAction;
using model::CallOrder;
using model::CallSelector;
using model::Case;
using model::CaseFromJson;
using model::DriverReport;
using model::Exchange;
using model::ExchangeReport;
using model::Expect;
using model::Expected;
using model::ExpectedFromFileName;
using model::ExpectedFromOutcome;
using model::kDenialMessage;
using model::NamedCall;
using model::ParsedCall;
using model::Refusal;
using model::Result;
using model::ScriptedResponse;
using model::WireAssertion;

}  // namespace gemini_oracle::runner
