package io.specwatch.ingest.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point: {@code java -jar specwatch-ingest.jar
 * ship|tail|parse|scrape|generate|replay-dead-letters ...}.
 */
@Command(
    name = "specwatch-ingest",
    mixinStandardHelpOptions = true,
    version = "specwatch-ingest 0.1.0",
    description = "Engine log shipper: parses inference logs into DecodeEvents.",
    subcommands = {
      ShipCommand.class,
      TailCommand.class,
      ParseCommand.class,
      ScrapeCommand.class,
      GenerateCommand.class,
      ReplayDeadLettersCommand.class
    })
public final class IngestCli implements Runnable {

  @Override
  public void run() {
    new CommandLine(this).usage(System.err);
  }

  public static void main(String[] args) {
    System.exit(newCommandLine().execute(args));
  }

  /** The command line with the project's error handling, shared by main and tests. */
  public static CommandLine newCommandLine() {
    CommandLine cli = new CommandLine(new IngestCli());
    cli.setExecutionExceptionHandler(
        (e, cmd, parsed) -> {
          cmd.getErr().println("error: " + e.getMessage());
          return 2;
        });
    return cli;
  }
}
