package io.specwatch.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class DurationsTest {

  @Test
  void shortForms() {
    assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Durations.parse("1m")).isEqualTo(Duration.ofMinutes(1));
    assertThat(Durations.parse("2h")).isEqualTo(Duration.ofHours(2));
    assertThat(Durations.parse("1d")).isEqualTo(Duration.ofDays(1));
    assertThat(Durations.parse(" 10S ")).isEqualTo(Duration.ofSeconds(10));
    assertThat(Durations.parse("0s")).isEqualTo(Duration.ZERO);
  }

  @Test
  void iso8601() {
    assertThat(Durations.parse("PT30S")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Durations.parse("pt1m")).isEqualTo(Duration.ofMinutes(1));
    assertThat(Durations.parse("PT0.5S")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("P1D")).isEqualTo(Duration.ofDays(1));
  }

  @Test
  void errorsNameTheTextTheFormsAndTheSetting() {
    for (String bad : new String[] {"soon", "", "s", "10", "10x", "PTxS", "1.5m", "ms"}) {
      assertThatThrownBy(() -> Durations.parse(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + bad + "'")
          .hasMessageContaining("PT30S");
    }
    assertThatThrownBy(() -> Durations.parse(null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Durations.parse("soon", "--grace (SPECWATCH_GRACE)"))
        .hasMessageStartingWith("--grace (SPECWATCH_GRACE): invalid duration 'soon'");
  }

  @Command(name = "app")
  static final class App implements Runnable {
    @Option(names = "--grace", converter = Durations.Converter.class)
    Duration grace;

    @Override
    public void run() {}
  }

  @Test
  void picocliOptionsAcceptBothFormsAndNameTheOptionOnError() {
    App app = new App();
    new CommandLine(app).parseArgs("--grace", "PT45S");
    assertThat(app.grace).isEqualTo(Duration.ofSeconds(45));
    new CommandLine(app).parseArgs("--grace", "45s");
    assertThat(app.grace).isEqualTo(Duration.ofSeconds(45));

    StringWriter err = new StringWriter();
    int code = new CommandLine(new App()).setErr(new PrintWriter(err)).execute("--grace", "later");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString())
        .contains("Invalid value for option '--grace'")
        .contains("invalid duration 'later'");
  }
}
