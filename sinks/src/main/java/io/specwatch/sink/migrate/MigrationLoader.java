package io.specwatch.sink.migrate;

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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Finds the migration files in a class-path folder (a directory or inside a jar), ordered. */
public final class MigrationLoader {

  public static final String DEFAULT_LOCATION = "db/migration";

  private MigrationLoader() {}

  /** Loads {@link #DEFAULT_LOCATION} from this module's class path. */
  public static List<Migration> loadDefault() {
    return load(MigrationLoader.class.getClassLoader(), DEFAULT_LOCATION);
  }

  /** Loads every {@code V*__*.sql} under the folder, sorted by version; duplicates are an error. */
  public static List<Migration> load(ClassLoader loader, String location) {
    URL url = loader.getResource(location);
    if (url == null) {
      throw new IllegalStateException("no migration folder on the class path: " + location);
    }
    try {
      URI uri = url.toURI();
      if ("jar".equals(uri.getScheme())) {
        try (FileSystem fs = jarFileSystem(uri)) {
          return fromDirectory(fs.provider().getPath(uri));
        }
      }
      return fromDirectory(Path.of(uri));
    } catch (URISyntaxException e) {
      throw new IllegalStateException("bad migration location " + url, e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read migrations from " + url, e);
    }
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

  static List<Migration> fromDirectory(Path dir) throws IOException {
    List<Migration> migrations = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.sorted().toList()) {
        String name = file.getFileName().toString();
        if (Migration.isMigrationFile(name)) {
          migrations.add(Migration.fromFile(name, Files.readString(file, StandardCharsets.UTF_8)));
        } else if (name.endsWith(".sql")) {
          throw new IllegalStateException(
              "SQL file with a bad migration name (want V001__description.sql): " + name);
        }
      }
    }
    return sorted(migrations);
  }

  /** Sorts by version and rejects two files with the same version. */
  public static List<Migration> sorted(List<Migration> migrations) {
    List<Migration> out = new ArrayList<>(migrations);
    out.sort(Comparator.comparingInt(Migration::version));
    for (int i = 1; i < out.size(); i++) {
      if (out.get(i).version() == out.get(i - 1).version()) {
        throw new IllegalStateException(
            "two migrations with version "
                + out.get(i).version()
                + ": "
                + out.get(i - 1).description()
                + ", "
                + out.get(i).description());
      }
    }
    return List.copyOf(out);
  }
}
