package io.specwatch.sink.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.testkit.Chromium;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard page rendered for real: headless Chromium loads it from the server over the real
 * ClickHouse, runs its scripts (fetch + uPlot) and the test asserts on the resulting DOM; a
 * screenshot goes to {@code target/dashboard.png}.
 */
class DashboardBrowserIT {

  private static DashboardFixture fx;
  private static Chromium chromium;

  @TempDir static Path profiles;

  @BeforeAll
  static void start() throws Exception {
    chromium = Chromium.ensureInstalled();
    fx = new DashboardFixture("it_dashboard_ui");
  }

  @AfterAll
  static void stop() {
    if (fx != null) {
      fx.close();
    }
  }

  private static int count(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  @Test
  void rendersVerdictChartsPickerAndAlertsForTheBelowBaselineDeployment() throws Exception {
    String dom = chromium.dumpDom(fx.url("/?deployment=kimi-eagle3"), profiles.resolve("kimi"));

    assertThat(dom).contains("data-state=\"ready\"").contains("data-charts=\"4\"");
    // the picker offers both deployments, the requested one selected
    assertThat(dom)
        .contains(">kimi-eagle3 (2 windows)</option>")
        .contains(">llama-eagle3 (1 windows)</option>");
    assertThat(dom)
        .contains("class=\"verdict below_baseline\"")
        .contains(
            "kimi-eagle3: Speculation costs throughput: S 0.79 (68.0 vs 82.0 tok/s),"
                + " \u03c4 2.20 &lt; break-even \u03c4* 2.50");
    // four uPlot charts, each with its canvas and legend series
    assertThat(count(dom, "<canvas")).isEqualTo(4);
    assertThat(count(dom, "class=\"uplot")).isEqualTo(4);
    assertThat(dom)
        .contains("\u03c4* break-even")
        .contains("baseline tok/s")
        .contains("verify p99");
    assertThat(dom).contains("latest window").contains("range mean");
    // alerts: one table row per alert state change, with the attributed change
    assertThat(count(dom, "<tr class=\"RAISED\">")).isEqualTo(2);
    assertThat(dom)
        .contains("<td>REGRESSION</td>")
        .contains("<td>env NCCL_P2P_LEVEL removed</td>")
        .contains("<td>2026-03-14 02:17</td>");
  }

  @Test
  void aboveBaselineDeploymentAndARangeFromTheUrl() throws Exception {
    String dom =
        chromium.dumpDom(
            fx.url("/?deployment=llama-eagle3&from=2026-03-14T02:00:00Z&to=2026-03-14T03:00:00Z"),
            profiles.resolve("llama"));
    assertThat(dom).contains("data-state=\"ready\"");
    assertThat(dom)
        .contains("class=\"verdict above_baseline\"")
        .contains("llama-eagle3: Speculation pays: S 1.68 (266.0 vs 158.0 tok/s)");
    assertThat(dom).contains("windows starting 2026-03-14 02:00 to 2026-03-14 03:00 UTC");
    assertThat(count(dom, "<tr class=\"CLEARED\">")).isEqualTo(1);
    assertThat(dom).contains("EAGLE3 back above baseline");
  }

  @Test
  void screenshotIsSavedAndNotBlank() throws Exception {
    Path png = Path.of("target", "dashboard.png");
    Files.deleteIfExists(png);
    chromium.screenshot(
        fx.url("/?deployment=kimi-eagle3"), png, 1400, 1300, profiles.resolve("shot"));
    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image.getWidth()).isEqualTo(1400);
    Set<Integer> colours = new HashSet<>();
    int red = 0;
    for (int y = 0; y < image.getHeight(); y += 2) {
      for (int x = 0; x < image.getWidth(); x += 2) {
        int rgb = image.getRGB(x, y) & 0xFFFFFF;
        colours.add(rgb);
        if (rgb == 0xC0392B) {
          red++;
        }
      }
    }
    // charts, text and the verdict banner give hundreds of colours; a blank page has one or two
    assertThat(colours).hasSizeGreaterThan(100);
    // the below-baseline banner is the verdict's red
    assertThat(red).isGreaterThan(1000);
  }
}
