"""claims: the pure domain core of claimaudit (no DB, queue, HTTP or settings imports).

Pipeline, one module per step (each function documented where it lives):

- ``claims.decompose.decompose(text) -> list[Claim]``: atomic, self-contained claims with
  character spans (FActScore, Min et al. 2023).
- ``claims.embed``: ``Embedder`` protocol (``model_name``, ``dim``,
  ``embed(texts) -> float32 (n, dim), L2-normalised``), ``default_embedder()`` (local
  all-MiniLM-L6-v2, offline) and ``CachedEmbedder`` (content-hash cache).
- ``claims.match``: ``cosine_matrix(a, b)``, ``DEFAULT_THRESHOLD`` and the one-to-one alignment.
- ``claims.verdict.judge(response_claims, reference_claims, similarity, *, threshold)
  -> list[Judgement]``: verdicts with evidence locators and reasons.
- ``claims.decision.decide(response_claims, reference_claims, similarity, judgements)
  -> list[Judgement]``: the calibrated decision; sets each verdict's ``confidence``.
- ``claims.polarity_probe.probe(judgements, ..., flip_similarity)``: a supported claim whose
  evidence sits closer to its opposite (one word flipped by the lexicon) is unsupported.
- ``claims.score.score_audit(...) -> AuditResult``: claim overlap / similarity (seed),
  precision, recall, F1, claim edit distance and script, Levenshtein scores.
- ``claims.options.AuditOptions.from_config(config, settings)``: an audit's threshold, flags,
  components and LLM band, worked out once.
- ``claims.audit``: the step functions the workers compose too (``similarity_step``,
  ``judge_step`` = judge, decide, probe, ``score_step``) and ``audit_texts(response, references,
  ...)``: all of the above in memory.
"""
