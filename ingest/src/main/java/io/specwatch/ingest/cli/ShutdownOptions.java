package io.specwatch.ingest.cli;

import io.specwatch.runtime.Durations;
import java.time.Duration;
import picocli.CommandLine.Option;

/** {@code --shutdown-timeout} of the long-running shippers ({@code tail}, {@code scrape}). */
final class ShutdownOptions {

  @Option(
      names = "--shutdown-timeout",
      defaultValue = "${env:SPECWATCH_SHUTDOWN_TIMEOUT:-30s}",
      converter = Durations.Converter.class,
      description =
          "How long SIGTERM waits for acknowledgements (env SPECWATCH_SHUTDOWN_TIMEOUT, default"
              + " ${DEFAULT-VALUE}).")
  Duration timeout;
}
