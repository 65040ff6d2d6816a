package io.specwatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.dashboard.DashboardServer;
import io.specwatch.testkit.Chromium;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard over a running pipeline: the demo scenario's generated logs went shipper -> Kafka
 * -> streams-app -> sink -> ClickHouse ({@link DemoPipeline}, shared with DemoScenarioIT); the
 * dashboard server reads that ClickHouse database and headless Chromium (Debian's {@code chromium})
 * renders the page. The test asserts on the rendered DOM against ClickHouse (picker options and
 * window counts, charts with data points, alert annotations and rows, tau and speedup) and saves a
 * screenshot to {@code target/dashboard-pipeline.png}.
 */
class DashboardPipelineIT {

  /** Kimi-K2.5 EAGLE-3 with the NCCL regression: below baseline, two alert types. */
  private static final String NCCL = "kimi-k25-eagle3-nccl";

  private static final String LLAMA = "llama31-8b-eagle3-h100";

  private static DemoPipeline demo;
  private static ClickHouseSql sql;
  private static DashboardServer server;
  private static Chromium chromium;

  @TempDir static Path profiles;

  @BeforeAll
  static void start() throws Exception {
    chromium = Chromium.ensureInstalled();
    demo = DemoPipeline.get();
    sql = new ClickHouseSql(demo.clickhouse);
    server = DashboardServer.start(sql, demo.database, "127.0.0.1", 0);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (sql != null) {
      sql.close();
    }
  }

  private static String url(String pathAndQuery) {
    return "http://127.0.0.1:" + server.port() + pathAndQuery;
  }

  private static List<List<String>> rows(String select) {
    return DemoPipeline.rows(sql, select);
  }

  private static int count(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  /** The number after {@code <dt>label</dt><dd>} in the verdict figures. */
  private static double figure(String dom, String label) {
    Matcher m =
        Pattern.compile("<dt>" + Pattern.quote(label) + "</dt><dd>([0-9.]+)</dd>").matcher(dom);
    assertThat(m.find()).as("figure %s in the page", label).isTrue();
    return Double.parseDouble(m.group(1));
  }

  /** Range figures of one deployment as the page computes them: spec total rows, cycle-weighted. */
  private static double[] tauAndSpeedup(String deployment) {
    List<List<String>> r =
        rows(
            "SELECT sum(mean_accept_length * cycles) / sum(cycles),"
                + " sumIf(speedup * cycles, speedup IS NOT NULL)"
                + " / sumIf(cycles, speedup IS NOT NULL) FROM "
                + demo.database
                + ".window_results FINAL WHERE deployment_id = '"
                + deployment
                + "' AND spec_enabled = 1 AND prompt_category = '*' AND batch_bucket = '*'"
                + " AND cycles > 0 AND mean_accept_length IS NOT NULL");
    return new double[] {Double.parseDouble(r.get(0).get(0)), Double.parseDouble(r.get(0).get(1))};
  }

  @Test
  void pageOverThePipelinesClickHouseShowsChartsPickerAlertsAndTau() throws Exception {
    String dom = chromium.dumpDom(url("/?deployment=" + NCCL), profiles.resolve("nccl"));

    assertThat(dom).contains("data-state=\"ready\"").contains("data-charts=\"4\"");
    assertThat(count(dom, "<canvas")).isEqualTo(4);

    // the picker: every deployment the pipeline loaded, with its window count from ClickHouse
    Map<String, Long> windows = new HashMap<>();
    for (List<String> r :
        rows(
            "SELECT deployment_id, uniqExact(window_start) FROM "
                + demo.database
                + ".window_results FINAL GROUP BY deployment_id")) {
      windows.put(r.get(0), Long.parseLong(r.get(1)));
    }
    Set<String> manifestIds = new HashSet<>();
    demo.manifest.path("deployments").forEach(d -> manifestIds.add(d.path("id").asText()));
    assertThat(windows.keySet()).containsExactlyInAnyOrderElementsOf(manifestIds);
    assertThat(count(dom, "<option value=\"[^\"]+\">[^<]+ windows\\)</option>"))
        .isEqualTo(windows.size());
    windows.forEach(
        (id, n) ->
            assertThat(dom)
                .contains("<option value=\"" + id + "\">" + id + " (" + n + " windows)"));

    // every chart plots data: the time charts one point per window and series at most
    Matcher points = Pattern.compile("id=\"chart-([a-z]+)\" data-points=\"(\\d+)\"").matcher(dom);
    Map<String, Integer> perChart = new HashMap<>();
    while (points.find()) {
      perChart.put(points.group(1), Integer.parseInt(points.group(2)));
    }
    assertThat(perChart).containsOnlyKeys("tau", "toks", "ms", "positions");
    long nccl = windows.get(NCCL);
    // tau and break-even tau* per window (tau* once the baseline met the window)
    assertThat(perChart.get("tau")).isBetween((int) nccl + 10, 2 * (int) nccl);
    assertThat(perChart.get("toks")).isBetween((int) nccl + 10, 2 * (int) nccl);
    assertThat(perChart.get("ms")).isGreaterThan((int) nccl);
    assertThat(perChart.get("positions")).isPositive();

    // alerts: one table row per alert state change in ClickHouse, and drawn on the time charts
    List<List<String>> alerts =
        rows(
            "SELECT state, type FROM "
                + demo.database
                + ".alerts FINAL WHERE deployment_id = '"
                + NCCL
                + "'");
    assertThat(alerts).extracting(r -> r.get(1)).contains("REGRESSION", "SPEC_BELOW_BASELINE");
    long raised = alerts.stream().filter(r -> r.get(0).equals("RAISED")).count();
    assertThat(count(dom, "<tr class=\"RAISED\">")).isEqualTo(raised);
    assertThat(count(dom, "<tr class=\"(RAISED|CLEARED)\">")).isEqualTo(alerts.size());
    assertThat(dom).contains("<td>REGRESSION</td>").contains("<td>SPEC_BELOW_BASELINE</td>");
    Matcher markers = Pattern.compile("data-markers=\"(\\d+)\"").matcher(dom);
    List<Integer> drawn = new ArrayList<>();
    while (markers.find()) {
      drawn.add(Integer.parseInt(markers.group(1)));
    }
    assertThat(drawn).as("alert annotations per time chart").hasSize(3).allMatch(n -> n >= 2);

    // the range's tau and speedup are ClickHouse's, cycle-weighted over the windows
    double[] expected = tauAndSpeedup(NCCL);
    assertThat(figure(dom, "\u03c4")).isCloseTo(expected[0], within(0.0051));
    assertThat(figure(dom, "speedup S")).isCloseTo(expected[1], within(0.0051));
    assertThat(expected[1]).as("the NCCL deployment runs below its baseline").isLessThan(1);
    assertThat(dom).contains("class=\"verdict below_baseline\"");
  }

  @Test
  void theVllmEagle3DeploymentShowsItsSpeedupOverTheLearnedBaseline() throws Exception {
    String dom = chromium.dumpDom(url("/?deployment=" + LLAMA), profiles.resolve("llama"));
    assertThat(dom).contains("data-state=\"ready\"");
    double[] expected = tauAndSpeedup(LLAMA);
    assertThat(expected[1]).isGreaterThan(1);
    assertThat(dom).contains("class=\"verdict above_baseline\"");
    assertThat(figure(dom, "\u03c4")).isCloseTo(expected[0], within(0.0051));
    assertThat(figure(dom, "speedup S")).isCloseTo(expected[1], within(0.0051));
    assertThat(figure(dom, "baseline tok/s"))
        .as("1000 / t_AR of the plain twin")
        .isBetween(110.0, 200.0);
  }

  @Test
  void screenshotShowsTheChartsWithData() throws Exception {
    Path png = Path.of("target", "dashboard-pipeline.png");
    Files.deleteIfExists(png);
    chromium.screenshot(url("/?deployment=" + NCCL), png, 1400, 1300, profiles.resolve("shot"));
    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image.getWidth()).isEqualTo(1400);
    Set<Integer> colours = new HashSet<>();
    int tauBlue = 0;
    int red = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int rgb = image.getRGB(x, y) & 0xFFFFFF;
        colours.add(rgb);
        if (rgb == 0x2E86C1) {
          tauBlue++;
        } else if (rgb == 0xC0392B) {
          red++;
        }
      }
    }
    // charts, text and the verdict banner give hundreds of colours; a blank page has one or two
    assertThat(colours).hasSizeGreaterThan(100);
    // the tau and effective tok/s lines (2 px wide, across the chart) are drawn in this blue
    assertThat(tauBlue).as("pixels of the plotted tau / tok/s lines").isGreaterThan(1000);
    // the below-baseline banner, the tau* line and the raised-alert markers are red
    assertThat(red).isGreaterThan(1000);
  }
}
