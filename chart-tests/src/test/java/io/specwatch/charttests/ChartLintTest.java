package io.specwatch.charttests;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.Test;

class ChartLintTest {

  @Test
  void chartPassesStrictLint() {
    LintResult result = new Helm(Chart.dir()).lint().strict().call();
    assertThat(result.isFailed()).as("lint messages: %s", result.getMessages()).isFalse();
  }

  @Test
  void appVersionIsPinned() {
    assertThat(Chart.appVersion()).isEqualTo("0.1.0");
  }
}
