package io.specwatch.ingest.context;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-reads the {@code --run-context} file when its bytes changed (checked by {@link #poll} at every
 * tail poll; cheap: size and mtime first). A file that became unreadable or invalid keeps the
 * previous context and logs a WARN once per change.
 */
public final class RunContextFileWatcher {

  private static final Logger LOG = LoggerFactory.getLogger(RunContextFileWatcher.class);

  private final Path file;
  private final RunContextTracker tracker;
  private long size = -1;
  private long mtime = -1;
  private byte[] bytes;

  /** Starts from the content the tracker was built with. */
  public RunContextFileWatcher(Path file, RunContextTracker tracker) {
    this.file = file;
    this.tracker = tracker;
    try {
      this.bytes = Files.readAllBytes(file);
      this.size = Files.size(file);
      this.mtime = Files.getLastModifiedTime(file).toMillis();
    } catch (IOException e) {
      this.bytes = null;
    }
  }

  /**
   * Re-reads the file when it changed and hands the new content to the tracker.
   *
   * @return true when the tracker's file layer was replaced
   */
  public boolean poll() {
    try {
      long s = Files.size(file);
      long m = Files.getLastModifiedTime(file).toMillis();
      if (s == size && m == mtime) {
        return false;
      }
      size = s;
      mtime = m;
      byte[] now = Files.readAllBytes(file);
      if (Arrays.equals(now, bytes)) {
        return false;
      }
      bytes = now;
      tracker.setFile(RunContextSources.readFile(file));
      LOG.info("run-context file={} changed, re-read", file);
      return true;
    } catch (IOException | IllegalArgumentException e) {
      LOG.warn(
          "run-context file={} cannot be used, keeping the previous context: {}",
          file,
          e.getMessage());
      return false;
    }
  }
}
