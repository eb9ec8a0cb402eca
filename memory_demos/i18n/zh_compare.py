"""比较页较新部分的中文文本：上下文说明、聚焦视图、假设重放、导出。"""

from __future__ import annotations

TEXTS: dict[str, str] = {
    "compare.window_line": "每个量表都把窗格的提示与 {window} 个词元的上下文窗口相比（{source}）。",
}
