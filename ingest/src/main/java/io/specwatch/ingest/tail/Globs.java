package io.specwatch.ingest.tail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Expansion of the tailer's file globs, done again at every poll so new files are picked up. */
final class Globs {

  // logged under the tailer's name, as before this was split out of Tailer
  private static final Logger LOG = LoggerFactory.getLogger(Tailer.class);

  private Globs() {}

  /** Regular files matching a glob; the directory part before the first wildcard is walked. */
  static List<Path> expand(String glob) throws IOException {
    Path absolute = Path.of(glob).toAbsolutePath().normalize();
    Path base = absolute.getRoot();
    int depth = 0;
    boolean wild = false;
    for (Path part : absolute) {
      String name = part.toString();
      if (!wild && !name.matches(".*[*?\\[{].*")) {
        base = base.resolve(name);
      } else {
        wild = true;
        depth =
            name.contains("**")
                ? Integer.MAX_VALUE
                : (depth == Integer.MAX_VALUE ? depth : depth + 1);
      }
    }
    List<Path> out = new ArrayList<>();
    if (!wild) {
      out.add(absolute); // a plain path is tailed even before it exists
      return out;
    }
    if (!Files.isDirectory(base)) {
      return out;
    }
    PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + absolute);
    try (Stream<Path> walk = Files.walk(base, depth)) {
      walk.filter(Files::isRegularFile).filter(matcher::matches).sorted().forEach(out::add);
    } catch (UncheckedIOException e) {
      LOG.debug("glob={} walk failed: {}", glob, e.toString());
    }
    return out;
  }
}
