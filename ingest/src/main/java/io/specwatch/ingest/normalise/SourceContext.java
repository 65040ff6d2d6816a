package io.specwatch.ingest.normalise;

import java.util.Objects;

/**
 * Where lines come from.
 *
 * @param deploymentId logical deployment, the Kafka key
 * @param host GPU host name
 * @param source file path as recorded in events
 * @param sourceIdentity stable identity of the file's content (see {@link FileFingerprint})
 */
public record SourceContext(
    String deploymentId, String host, String source, String sourceIdentity) {

  public SourceContext {
    requireText(deploymentId, "deployment");
    requireText(host, "host");
    requireText(source, "source");
    Objects.requireNonNull(sourceIdentity, "sourceIdentity");
  }

  private static void requireText(String value, String setting) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(setting + " must not be blank");
    }
  }
}
