package io.specwatch.ingest.normalise;

import io.specwatch.ingest.parse.request.RequestJsonParser;
import io.specwatch.ingest.parse.request.RequestLine;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.RequestAcceptance;

/** Per-request lines to RequestAcceptance records. Stateless. */
public final class RequestAcceptances {

  private RequestAcceptances() {}

  /**
   * Builds the record: event time is the line's {@code ts}/{@code finished_at}, else the ingest
   * time; the event id is computed like DecodeEvent.eventId.
   */
  public static RequestAcceptance of(SourceContext source, RequestLine r, LineOrigin origin) {
    return RequestAcceptance.newBuilder()
        .setEventId(origin.eventId(source))
        .setRequestId(r.requestId())
        .setDeploymentId(source.deploymentId())
        .setHost(source.host())
        .setSource(source.source())
        .setEngine(
            r.format().equals(RequestJsonParser.SGLANG_META_INFO)
                ? Engine.SGLANG
                : Engine.INSTRUMENTED)
        .setFinishedAt(r.finishedAt() == null ? origin.ingestTime() : r.finishedAt())
        .setPromptHash(r.promptHash())
        .setPromptRef(r.promptRef())
        .setPromptCategory(r.promptCategory())
        .setModel(r.model())
        .setDraftModelVersion(r.draftModelVersion())
        .setPromptTokens(r.promptTokens())
        .setOutputTokens(r.outputTokens())
        .setVerifyCycles(r.verifyCycles())
        .setAcceptedTokens(r.acceptedTokens())
        .setDraftedTokens(r.draftedTokens())
        .setAcceptLength(r.acceptLength())
        .setRawAcceptRate(r.rawAcceptRate())
        .setAcceptHistogram(r.acceptHistogram())
        .setRawFields(r.rawFields())
        .build();
  }
}
