"""Step 6: ConversationSummaryBufferMemory → ``create_agent`` with ``SummarizationMiddleware``."""

from __future__ import annotations

from memory_demos.migration.program import Program

STEP_ID = "summary_buffer"
TITLE_KEY = "migration.summary_buffer.title"
CLASSIC_API = "langchain_classic.memory.ConversationSummaryBufferMemory"
MODERN_API = "langchain.agents.create_agent + langchain.agents.middleware.SummarizationMiddleware"
SUMMARY_KEY = "migration.summary_buffer.summary"
meant_to_match = False
# The token budget is tuned to these messages: the prompts part from the 4th turn on.
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a good book about gardening for small balconies?",
    "What do you think about spring weather in general?",
    "What's my name?",
)
# The same script in Chinese, its third message long enough that the prompts part on the same turns (a
# Chinese session's summaries are then Chinese too).
DEFAULT_INPUTS_ZH: tuple[str, ...] = (
    "你好，我叫玛拉，住在里斯本。",
    "我的订单号是 A-1234。",
    "能不能推荐一本讲怎样在小小的阳台上种花、种菜和种香草的好书？",
    "一般来说，你觉得春天的天气怎么样？",
    "我叫什么名字？",
)
PITFALL_KEYS: tuple[str, ...] = (
    "migration.summary_buffer.pitfall.1",
    "migration.summary_buffer.pitfall.2",
    "migration.summary_buffer.pitfall.3",
    "migration.summary_buffer.pitfall.4",
)

# The two programs the page shows and runs (programs/*.py): complete, importing no Memory Lab code.
classic_version = Program("summary_buffer_classic.py")
modern_version = Program("summary_buffer_modern.py")
