"""Step 4: ConversationTokenBufferMemory → ``create_agent`` + ``@before_model`` trimming by tokens."""

from __future__ import annotations

from memory_demos.migration.program import Program

STEP_ID = "token_buffer"
TITLE_KEY = "migration.token_buffer.title"
CLASSIC_API = "langchain_classic.memory.ConversationTokenBufferMemory"
MODERN_API = "langchain.agents.create_agent + before_model + trim_messages(token_counter=model)"
SUMMARY_KEY = "migration.token_buffer.summary"
meant_to_match = False
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a good book about gardening for small balconies?",
    "What do you think about spring weather in general?",
    "What's my order number?",
)
# The same script in Chinese, offered in a Chinese session: the prompts part on the same turns. Its middle
# messages are shorter than a word-for-word translation: the offline model's Chinese acknowledgements are
# longer, and with the longer ones the classic buffer also dropped the order number (the lesson is that
# only the modern trim, cutting whole turns before the call, loses it).
DEFAULT_INPUTS_ZH: tuple[str, ...] = (
    "你好，我叫玛拉，住在里斯本。",
    "我的订单号是 A-1234。",
    "能推荐一本阳台园艺书吗？",
    "你觉得春天天气怎么样？",
    "我的订单号是多少？",
)
PITFALL_KEYS: tuple[str, ...] = (
    "migration.token_buffer.pitfall.1",
    "migration.token_buffer.pitfall.2",
    "migration.token_buffer.pitfall.3",
    "migration.token_buffer.pitfall.4",
)

# The two programs the page shows and runs (programs/*.py): complete, importing no Memory Lab code.
classic_version = Program("token_buffer_classic.py")
modern_version = Program("token_buffer_modern.py")
