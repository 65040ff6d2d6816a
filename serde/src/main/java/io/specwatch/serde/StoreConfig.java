package io.specwatch.serde;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * A key store or trust store for TLS to the registry.
 *
 * @param location file path
 * @param password store password, may be null (never logged)
 * @param type store type, e.g. PKCS12 or JKS
 */
public record StoreConfig(Path location, String password, String type) {

  public StoreConfig {
    if (location == null || type == null || type.isBlank()) {
      throw new IllegalArgumentException("store location and type are required");
    }
  }

  /** Reads {@code <prefix>.location/.password/.type}; null when no location is set. */
  static StoreConfig from(Map<String, ?> config, String prefix) {
    String locationKey = prefix + ".location";
    String location = ConfigValues.string(config, locationKey, null);
    if (location == null) {
      return null;
    }
    Path path = Path.of(location);
    if (!Files.isReadable(path)) {
      throw new ConfigException(locationKey, location, "file does not exist or is not readable");
    }
    String type = ConfigValues.string(config, prefix + ".type", KeyStore.getDefaultType());
    try {
      KeyStore.getInstance(type);
    } catch (java.security.KeyStoreException e) {
      throw new ConfigException(prefix + ".type", type, "unknown key store type");
    }
    return new StoreConfig(path, ConfigValues.secret(config, prefix + ".password"), type);
  }

  char[] passwordChars() {
    return password == null ? null : password.toCharArray();
  }

  @Override
  public String toString() {
    return "StoreConfig[location="
        + location
        + ", password="
        + (password == null ? "null" : "[hidden]")
        + ", type="
        + type
        + "]";
  }
}
