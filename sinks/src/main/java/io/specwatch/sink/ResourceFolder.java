package io.specwatch.sink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** Reads the text files of a class-path folder, from a directory or from inside a jar. */
public final class ResourceFolder {

  private ResourceFolder() {}

  /** File name to UTF-8 text of the folder's files whose names pass {@code names}, sorted. */
  public static Map<String, String> read(
      ClassLoader loader, String location, Predicate<String> names) {
    URL url = loader.getResource(location);
    if (url == null) {
      throw new IllegalStateException("no folder on the class path: " + location);
    }
    try {
      URI uri = url.toURI();
      if ("jar".equals(uri.getScheme())) {
        try (FileSystem fs = jarFileSystem(uri)) {
          return read(fs.provider().getPath(uri), names);
        }
      }
      return read(Path.of(uri), names);
    } catch (URISyntaxException e) {
      throw new IllegalStateException("bad class-path location " + url, e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + url, e);
    }
  }

  /** Same for a directory on disk. */
  public static Map<String, String> read(Path dir, Predicate<String> names) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.sorted().toList()) {
        String name = file.getFileName().toString();
        if (names.test(name)) {
          out.put(name, Files.readString(file, StandardCharsets.UTF_8));
        }
      }
    }
    return out;
  }

  private static FileSystem jarFileSystem(URI uri) throws IOException {
    try {
      FileSystems.getFileSystem(uri);
      // Already open elsewhere: open our own view so closing it is always safe.
      return FileSystems.newFileSystem(Path.of(jarPath(uri)), Map.of());
    } catch (FileSystemNotFoundException e) {
      return FileSystems.newFileSystem(uri, Map.of());
    }
  }

  private static URI jarPath(URI jarUri) {
    String spec = jarUri.getSchemeSpecificPart();
    return URI.create(spec.substring(0, spec.indexOf("!/")));
  }
}
