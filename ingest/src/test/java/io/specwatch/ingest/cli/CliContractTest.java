package io.specwatch.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The CLI contract of ship, tail, scrape and parse: every option names its SPECWATCH_* env
 * equivalent (except the raw Kafka passthroughs, whose env form is the properties file), every
 * command documents its exit codes, and the exit codes are what the README says.
 */
class CliContractTest {

  /** Options without an env equivalent by design (raw client settings, repeatable k=v). */
  private static final Set<String> NO_ENV =
      Set.of("--help", "--version", "--kafka-property", "--producer-property");

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"ship", "tail", "scrape", "parse"})
  void everyOptionDocumentsItsEnvVariable(String command) {
    CommandLine sub = IngestCli.newCommandLine().getSubcommands().get(command);
    List<String> undocumented = new ArrayList<>();
    for (OptionSpec o : sub.getCommandSpec().options()) {
      if (NO_ENV.contains(o.longestName())) {
        continue;
      }
      String description = String.join(" ", o.description());
      if (!description.contains("SPECWATCH_")) {
        undocumented.add(o.longestName());
      }
    }
    assertThat(undocumented).as(command + " options without an env variable").isEmpty();
    assertThat(String.join(" ", sub.getCommandSpec().usageMessage().description()))
        .contains("Exit codes: 0");
  }

  private int run(StringWriter err, String... args) {
    CommandLine cli = IngestCli.newCommandLine();
    cli.setOut(new PrintWriter(new StringWriter()));
    cli.setErr(new PrintWriter(err));
    return cli.execute(args);
  }

  @Test
  void helpExitsZeroAndUsageErrorsExitTwo() {
    assertThat(run(new StringWriter(), "ship", "--help")).isZero();
    StringWriter err = new StringWriter();
    assertThat(run(err, "ship", "--no-such-option")).isEqualTo(2);
    assertThat(err.toString()).contains("--no-such-option");
    assertThat(run(new StringWriter(), "tail", "--poll-interval", "soon")).isEqualTo(2);
  }

  @Test
  void badSettingsExitTwoNamingTheSetting() throws Exception {
    Path log = dir.resolve("a.log");
    Files.writeString(log, "hello\n");
    StringWriter err = new StringWriter();
    assertThat(run(err, "ship", "--deployment", "d")).isEqualTo(2);
    assertThat(err.toString())
        .contains(
            "setting 'file' (SPECWATCH_FILE) or 'files-from' (SPECWATCH_FILES_FROM) is required");

    err = new StringWriter();
    String noList = dir.resolve("no-list.txt").toString();
    assertThat(run(err, "ship", "--files-from", noList, "--deployment", "d")).isEqualTo(2);
    assertThat(err.toString())
        .contains("setting 'files-from' (SPECWATCH_FILES_FROM): cannot read '" + noList + "'");

    // a named file that cannot be read fails at its line, before anything reaches Kafka (the
    // bootstrap here has no broker: shipping the blank-line-preceded entry would not end in 2)
    Path list = dir.resolve("list.txt");
    Path gone = dir.resolve("gone.log");
    Files.writeString(list, "\n" + gone + "\n" + log + "\n");
    err = new StringWriter();
    assertThat(
            run(
                err,
                "ship",
                "--files-from",
                list.toString(),
                "--deployment",
                "d",
                "--bootstrap",
                "127.0.0.1:1"))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains(
            "setting 'files-from' (SPECWATCH_FILES_FROM), line 2 of '"
                + list
                + "': cannot read '"
                + gone
                + "'");

    err = new StringWriter();
    assertThat(
            run(
                err,
                "ship",
                "--file",
                log.toString(),
                "--deployment",
                "d",
                "--bootstrap",
                "127.0.0.1:1",
                "--parse-threads",
                "0"))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains(
            "setting 'parse-threads' (SPECWATCH_PARSE_THREADS) must be between 1 and 64, was 0");

    err = new StringWriter();
    assertThat(run(err, "ship", "--file", log.toString(), "--deployment", "d", "--tp", "0"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("tp (SPECWATCH_TP)");

    err = new StringWriter();
    assertThat(
            run(
                err,
                "ship",
                "--file",
                log.toString(),
                "--deployment",
                "d",
                "--run-context",
                dir.resolve("missing.json").toString()))
        .isEqualTo(2);
    assertThat(err.toString()).contains("run-context").contains("missing.json");

    Path broken = dir.resolve("broken.json");
    Files.writeString(broken, "{\"tp\": \"eight\"}");
    err = new StringWriter();
    assertThat(run(err, "parse", "--run-context", broken.toString(), log.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("run-context").contains("tp: expected an integer");

    err = new StringWriter();
    assertThat(run(err, "parse", dir.resolve("nope.log").toString())).isEqualTo(2);
  }

  @Test
  void parseAppliesTheCliContextAndCountsSkips() throws Exception {
    Path log = dir.resolve("req.jsonl");
    Files.writeString(
        log,
        "{\"meta_info\":{\"id\":\"a\",\"completion_tokens\":9,\"spec_verify_ct\":0}}\n"
            + "{\"meta_info\":{\"id\":\"b\",\"completion_tokens\":9,\"spec_verify_ct\":3}}\n");
    CommandLine cli = IngestCli.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int code =
        cli.execute(
            "parse",
            "--deployment",
            "d",
            "--model",
            "kimi",
            "--spec-method",
            "eagle3",
            "--tp",
            "8",
            "--env",
            "NCCL_PROTO=LL",
            log.toString());
    assertThat(code).isZero();
    String[] lines = out.toString().split("\n");
    assertThat(lines).hasSize(2);
    assertThat(lines[0])
        .contains("\"record\":\"RunContext\"")
        .contains("\"specMethod\":\"EAGLE3\"")
        .contains("\"env\":{\"NCCL_PROTO\":\"LL\"}");
    assertThat(lines[1])
        .contains("\"record\":\"RequestAcceptance\"")
        .contains("\"requestId\":\"b\"");
    assertThat(err.toString())
        .contains(":1: skipped (sglang.meta_info): spec_verify_ct = 0")
        .contains("lines=2 recognised=1 dead-lettered=0 unrecognised=0 skipped=1");
  }
}
