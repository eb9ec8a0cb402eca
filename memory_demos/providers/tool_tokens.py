"""Tokens the tool definitions bound to a model add to its prompt: an estimate, and labelled as one.

OpenAI does not publish how it renders tool schemas into the prompt. This follows the method of
OpenAI's cookbook ("How to count tokens with tiktoken", tools section, for the gpt-4o family): a fixed
cost per function and per property plus the tokens of ``name:description`` lines. When the provider
reports its own prompt count, that count already includes the tools and this estimate is not used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from memory_demos.providers.tokenizer import count_text_tokens

TOOL_TOKENS_METHOD = "estimated with the OpenAI cookbook method for tool definitions"
_FUNCTION_INIT = 7
_PROPERTIES_INIT = 3
_PROPERTY_KEY = 3
_ENUM_INIT = -3
_ENUM_ITEM = 3
_FUNCTIONS_END = 12


def _function_of(tool: Mapping[str, Any]) -> Mapping[str, Any]:
    function = tool.get("function", tool)
    return function if isinstance(function, Mapping) else {}


def count_tool_tokens(tools: Sequence[Mapping[str, Any]], encoding_name: str) -> int:
    """Estimated prompt tokens of OpenAI-format tool definitions (0 when no tool is bound)."""
    if not tools:
        return 0
    total = 0
    for tool in tools:
        function = _function_of(tool)
        description = str(function.get("description", "")).rstrip(".")
        total += _FUNCTION_INIT + count_text_tokens(
            f"{function.get('name', '')}:{description}", encoding_name
        )
        properties = (function.get("parameters") or {}).get("properties") or {}
        if properties:
            total += _PROPERTIES_INIT
            for key, spec in properties.items():
                total += _PROPERTY_KEY
                for item in spec.get("enum", ()) if "enum" in spec else ():
                    total += _ENUM_ITEM + count_text_tokens(str(item), encoding_name)
                if "enum" in spec:
                    total += _ENUM_INIT
                line = f"{key}:{spec.get('type', '')}:{str(spec.get('description', '')).rstrip('.')}"
                total += count_text_tokens(line, encoding_name)
    return total + _FUNCTIONS_END


def tool_names(tools: Sequence[Mapping[str, Any]]) -> list[str]:
    """The names of OpenAI-format tool definitions, in order."""
    return [str(_function_of(tool).get("name", "?")) for tool in tools]
