"""Chat: ask questions about one indexed repository; streamed, cited answers with their sources."""

from codeqa_ui import screens

screens.chat_page()
