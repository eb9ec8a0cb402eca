"""English texts of what the core says when something fails: model calls, budgets, URLs, scenarios, prices."""

TEXTS: dict[str, str] = {
    "error.timeout": (
        "The model did not answer in time (timeout). Raise the timeout (Settings, or --timeout) or lower "
        "max_tokens, then try again."
    ),
    "error.rate_limit": "The provider is rate limiting requests (429). Wait a moment and retry.",
    "error.authentication": (
        "The provider refused the API key (401). Check the key (in Settings, or the variable named by "
        "--api-key-env on the command line)."
    ),
    "error.permission": "The provider denied access to this model (403).",
    "error.not_found": "The provider does not know this model or URL (404).",
    "error.context_overflow": (
        "Context window exceeded: the prompt (or the prompt plus the reply) is longer than the model can "
        "take. This is not a network fault and retrying as is will fail again. A smaller memory budget helps "
        "(a smaller window k, max_token_limit or max_tokens for the memory), as do a lower max_tokens per "
        "reply, clearing the chat, or a larger context on the server."
    ),
    "error.interrupted": (
        "The server stopped this reply to answer another request: it serves one request at a time. Set "
        "'Answer panes at most N at a time' to 1 in Settings (command line: --concurrency 1), or let the "
        "server queue requests (llama-cpp-python: --interrupt_requests false)."
    ),
    "error.overflow_evidence": (
        "(The server's own tokenizer counts {prompt_tokens} prompt tokens; with max_tokens {max_tokens} "
        "that is more than its context window of {window}.)"
    ),
    "error.maybe_overflow": (
        "The server said nothing, but the prompt is near the context window: about {prompt_tokens} tokens "
        "by a local count (tiktoken, not the server's tokenizer) plus max_tokens {max_tokens}, of {window}. "
        "If this repeats, the prompt may not fit: a lower max_tokens or a smaller memory budget would show."
    ),
    "error.connection_dropped": (
        "The connection to the provider dropped before the reply was complete. Try again."
    ),
    "error.connection": "Cannot reach the provider: check the base URL and that the server is running.",
    "error.server": "The provider had an internal error (5xx). Retry in a moment.",
    "error.malformed": "The provider sent a malformed response.",
    "error.url_refused": "The server refused to call that address (a workshop rule); nothing was sent.",
    "error.generic.rejected": "The provider rejected the request (its reply is not shown in a workshop).",
    "error.generic.other": "The call to the provider failed.",
    "error.raw": "{name}: {detail}",
    "error.with_evidence": "{message} {evidence}",
    "error.rollback_failed": "{error} (and restoring memory failed: {rollback})",
    "error.injected": "Injected fault: {detail}",
    "error.rejected": "The provider rejected the request: {detail}",
    "error.storage_hidden": (
        "The server's storage for this memory cannot be used right now; the host can see why in the log."
    ),
    "error.budget.tokens": (
        "Token budget reached: this call needs about {needed} tokens (prompt and a reply) and {left} of "
        "{limit} are left. Nothing was sent."
    ),
    "error.budget.concurrency": "Too many model calls at once for this attendee; nothing was sent.",
    # What a run's failed calls were, in a few words (a page's failure summary names each kind).
    "failure_kind.timeout": "timeout",
    "failure_kind.rate_limit": "rate limited",
    "failure_kind.authentication": "key refused",
    "failure_kind.permission": "access denied",
    "failure_kind.not_found": "model or URL unknown",
    "failure_kind.context_overflow": "context window overflow",
    "failure_kind.interrupted": "interrupted by the server",
    "failure_kind.connection_dropped": "connection dropped",
    "failure_kind.connection": "server unreachable",
    "failure_kind.server": "server error",
    "failure_kind.rejected": "request rejected",
    "failure_kind.malformed": "malformed reply",
    "failure_kind.url_refused": "address refused",
    "failure_kind.injected": "injected fault",
    "failure_kind.budget": "workshop budget reached",
    "failure_kind.input": "message refused",
    "failure_kind.storage": "storage unavailable",
    "failure_kind.other": "other failure",
    "failures.stopped_before": (
        "Nothing was measured: {kind}. The check before the first turn failed, so the replay did not start."
    ),
    "failures.stopped_after": (
        "Nothing was measured: {kind}. The first {n} turns all failed that way, so the replay stopped there."
    ),
    "failures.some": (
        "{failed} of {total} turns failed. They are shown as failed calls, not as forgotten facts, and "
        "cost nothing here."
    ),
    "failures.line": "**{kind}: {count} turns**: {help}",
    "failures.rejected_help": "The provider refused the request as sent; its own words are in the turn.",
    "failures.other_help": "The turn's error says what went wrong.",
    "check.reached": "The server answered in {seconds} s.",
    "check.lists": "It lists {count} models: {models}.",
    "check.lists_model": "It lists {model}.",
    "check.not_listed": "It does not list {model}; it lists: {models}. Calls may fail with 'model unknown'.",
    "check.lists_none": "It lists no models (it may still serve {model}).",
    "check.found": "{reached} {found}",
    "check.failed": "The check found: {kind}. {help}",
    "check.hosted": "The workshop model answered in {seconds} s.",
    "failures.panes": "The last message failed in {failed} of {total} panes; their memory is as it was.",
    "failures.injected_help": (
        "The offline teaching model failed on purpose (a fault switch): nothing is wrong."
    ),
    "url.invalid": "The base URL is not a valid URL.",
    "url.scheme": "The base URL must start with http:// or https:// and name a host.",
    "url.unresolved": "The base URL's host name does not resolve.",
    "url.credentials": "The base URL must not carry a user name or password.",
    "url.query": "The base URL must not carry a query (?) or fragment (#).",
    "url.not_allowed": (
        "In this workshop the server calls only the addresses the host allowed; this one is not among them."
    ),
    "url.private": "The base URL points at a private, loopback or link-local address: refused.",
    "url.left_allowed": "The request left the allowed address: refused.",
    "scenario.anchors": "Scenario files may not use YAML anchors or aliases.",
    "scenario.tag": "Scenario files may not use YAML tags ({tag}).",
    "scenario.too_deep": "The scenario is nested deeper than {depth} levels.",
    "scenario.not_yaml": "Not valid YAML: {detail}",
    "scenario.not_strings": "Turn {index}: '{field}' must be a list of strings.",
    "scenario.bytes_over": "The scenario file is {size} bytes; the limit is {limit}.",
    "scenario.not_utf8": "The scenario file is not UTF-8 text.",
    "scenario.too_large": "The scenario file is larger than {limit} bytes.",
    "scenario.unknown_fields": "Unknown scenario fields: {names}",
    "scenario.name": "'name' must be a non-empty string.",
    "scenario.language": "'language' must be 'en' or 'zh'.",
    "scenario.system": "'system' must be a string.",
    "scenario.description": "'description' must be a string.",
    "scenario.turn_not_mapping": "Turn {index} must be a mapping with 'user' (optional 'expect', 'reject').",
    "scenario.turn_unknown_fields": "Turn {index} has unknown fields: {names}",
    "scenario.user_empty": "Turn {index}: 'user' must be a non-empty string.",
    "scenario.user_too_long": "Turn {index}: 'user' is longer than {limit} characters.",
    "scenario.not_mapping": "A scenario is a mapping with name, language and turns.",
    "scenario.turns_empty": "'turns' must be a non-empty list.",
    "scenario.too_many_turns": "The scenario has {count} turns; the limit is {limit}.",
    "scenario.no_file": "No scenario file at {path}.",
    "scenario.path_too_large": "{path} is larger than {limit} bytes.",
    "scenario.unknown": "Unknown scenario {name}; bundled: {bundled}",
    "price.no_model": "Price row {number}: the model name is empty.",
    "price.twice": "Price row {number}: {model} appears twice.",
    "price.not_number": "Price row {number} ({model}): {field} must be a number; got {value}.",
    "price.out_of_range": "Price row {number} ({model}): {field} must be between 0 and {limit}.",
    "price.empty": "The price table is empty.",
}
