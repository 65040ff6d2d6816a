package io.specwatch.sink.cli;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point: {@code java -jar specwatch-sinks.jar
 * migrate|run|windows|query|rollups|select-finetune|dashboard [options]}.
 */
@Command(
    name = "specwatch-sinks",
    mixinStandardHelpOptions = true,
    subcommands = {
      MigrateCommand.class,
      RunCommand.class,
      WindowsCommand.class,
      QueryCommand.class,
      RollupsCommand.class,
      SelectFinetuneCommand.class,
      DashboardCommand.class
    },
    description =
        "ClickHouse sink for specwatch window results, the SQL cookbook, rollups and draft"
            + " fine-tuning data selection.")
public final class SinkCli implements Runnable {

  private static final Logger log = LoggerFactory.getLogger(SinkCli.class);

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  /** Runs a command line and returns its exit code (non-zero on any fatal error). */
  public static int execute(String... args) {
    return new CommandLine(new SinkCli())
        .setExecutionExceptionHandler(
            (e, cmd, parsed) -> {
              log.error("{} failed: {}", cmd.getCommandName(), e.getMessage());
              log.debug("{} failure detail", cmd.getCommandName(), e);
              cmd.getErr().println("error: " + e.getMessage());
              return 1;
            })
        .execute(args);
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }
}
