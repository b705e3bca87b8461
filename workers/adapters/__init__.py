"""Adapters to LLM endpoints speaking the OpenAI API (chat completions and embeddings).

Everything here goes through the official ``openai`` client pointed at ``OPENAI_BASE_URL``
(OpenAI, Azure's OpenAI-compatible endpoint, vLLM, Ollama, ...): no provider-specific code.
The client never retries (``max_retries=0``); Celery owns the retry policy (see ``errors``).
Imported only by ``workers`` (never by ``api``), lazily, when an audit asks for the LLM path.
"""
