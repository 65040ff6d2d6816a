package io.specwatch.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's headless Chromium, installed on first use through the project's {@code scripts/lib.sh
 * ensure_apt chromium} (so a bare machine or CI gets it the same way); runs as root with {@code
 * --no-sandbox}. Each run gets its own profile directory, so parallel runs do not collide. Shared
 * by the sinks' DashboardBrowserIT (known rows) and e2e's DashboardPipelineIT (a running pipeline).
 */
public final class Chromium {

  private static final long TIMEOUT_SECONDS = 90;

  private final Path binary;

  private Chromium(Path binary) {
    this.binary = binary;
  }

  /** Finds chromium on the PATH, installing it with scripts/lib.sh ensure_apt when missing. */
  public static synchronized Chromium ensureInstalled() throws IOException, InterruptedException {
    Path found = which();
    if (found == null) {
      Path lib = repositoryRoot().resolve("scripts/lib.sh");
      Process p =
          new ProcessBuilder("bash", "-c", "source \"$0\" && ensure_apt chromium", lib.toString())
              .inheritIO()
              .start();
      if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
        throw new IllegalStateException("could not install chromium via " + lib + " ensure_apt");
      }
      found = which();
      if (found == null) {
        throw new IllegalStateException("chromium still not on PATH after ensure_apt chromium");
      }
    }
    return new Chromium(found);
  }

  private static Path which() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path p = Path.of(dir, "chromium");
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("scripts/lib.sh"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no scripts/lib.sh above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }

  /** The DOM after the page's scripts ran (virtual time lets its fetches finish). */
  public String dumpDom(String url, Path profile) throws IOException, InterruptedException {
    List<String> cmd = base(profile);
    cmd.add("--dump-dom");
    cmd.add(url);
    return run(cmd, profile);
  }

  /** Saves a PNG screenshot of the page at the given window size. */
  public void screenshot(String url, Path png, int width, int height, Path profile)
      throws IOException, InterruptedException {
    List<String> cmd = base(profile);
    cmd.add("--window-size=" + width + "," + height);
    cmd.add("--screenshot=" + png.toAbsolutePath());
    cmd.add(url);
    run(cmd, profile);
    if (!Files.exists(png)) {
      throw new IllegalStateException("chromium wrote no screenshot " + png);
    }
  }

  private List<String> base(Path profile) {
    return new ArrayList<>(
        List.of(
            binary.toString(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--user-data-dir=" + profile.toAbsolutePath(),
            "--window-size=1400,1700",
            "--virtual-time-budget=15000"));
  }

  private static String run(List<String> cmd, Path profile)
      throws IOException, InterruptedException {
    Files.createDirectories(profile);
    Path out = Files.createTempFile(profile, "stdout", ".html");
    Path err = Files.createTempFile(profile, "stderr", ".log");
    Process p =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("chromium did not finish in " + TIMEOUT_SECONDS + " s");
    }
    if (p.exitValue() != 0) {
      throw new IllegalStateException(
          "chromium exited "
              + p.exitValue()
              + ": "
              + Files.readString(err, StandardCharsets.UTF_8));
    }
    return Files.readString(out, StandardCharsets.UTF_8);
  }
}
