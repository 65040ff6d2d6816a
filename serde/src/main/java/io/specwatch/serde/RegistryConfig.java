package io.specwatch.serde;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * Validated settings of a schema registry client, read from the same map as Kafka client settings
 * (unknown keys are ignored). Setting names follow Confluent's serde so existing configs carry
 * over.
 *
 * @param urls base URLs (http, https, or {@code mock://scope} for the in-memory registry)
 * @param userInfo {@code user:password} for HTTP basic auth, or null (never logged)
 * @param trustStore TLS trust store, or null for the JVM default
 * @param keyStore TLS client key store, or null
 * @param keyPassword password of the key in the key store, or null (never logged)
 * @param connectTimeout TCP connect timeout
 * @param requestTimeout whole-request timeout
 * @param maxRetries retries after the first attempt on IO errors and 5xx answers
 * @param retryBackoff first backoff; doubles per retry
 * @param maxRetryBackoff upper bound of one backoff
 */
public record RegistryConfig(
    List<URI> urls,
    String userInfo,
    StoreConfig trustStore,
    StoreConfig keyStore,
    String keyPassword,
    Duration connectTimeout,
    Duration requestTimeout,
    int maxRetries,
    Duration retryBackoff,
    Duration maxRetryBackoff) {

  public static final String URL = "schema.registry.url";
  public static final String CREDENTIALS_SOURCE = "basic.auth.credentials.source";
  public static final String USER_INFO = "basic.auth.user.info";
  public static final String TRUSTSTORE_PREFIX = "schema.registry.ssl.truststore";
  public static final String KEYSTORE_PREFIX = "schema.registry.ssl.keystore";
  public static final String KEY_PASSWORD = "schema.registry.ssl.key.password";
  public static final String CONNECT_TIMEOUT_MS = "http.connect.timeout.ms";
  public static final String REQUEST_TIMEOUT_MS = "http.read.timeout.ms";
  public static final String MAX_RETRIES = "max.retries";
  public static final String RETRIES_WAIT_MS = "retries.wait.ms";
  public static final String RETRIES_MAX_WAIT_MS = "retries.max.wait.ms";

  public RegistryConfig {
    if (urls == null || urls.isEmpty()) {
      throw new ConfigException(URL + " is required");
    }
    urls = List.copyOf(urls);
    if (connectTimeout.isZero() || requestTimeout.isZero()) {
      throw new ConfigException(CONNECT_TIMEOUT_MS + " and " + REQUEST_TIMEOUT_MS + " must be > 0");
    }
    if (maxRetryBackoff.compareTo(retryBackoff) < 0) {
      throw new ConfigException(
          RETRIES_MAX_WAIT_MS, maxRetryBackoff.toMillis(), "must be >= " + RETRIES_WAIT_MS);
    }
  }

  /** Parses and validates; throws {@link ConfigException} naming the bad setting. */
  public static RegistryConfig from(Map<String, ?> config) {
    List<URI> urls = parseUrls(ConfigValues.string(config, URL, null));
    String source = ConfigValues.string(config, CREDENTIALS_SOURCE, "URL").toUpperCase();
    String userInfo =
        switch (source) {
          case "USER_INFO" -> {
            String value = ConfigValues.secret(config, USER_INFO);
            if (value == null || value.indexOf(':') < 1) {
              throw new ConfigException(
                  USER_INFO + " must be user:password when " + CREDENTIALS_SOURCE + "=USER_INFO");
            }
            yield value;
          }
          case "URL" -> urls.get(0).getRawUserInfo();
          default ->
              throw new ConfigException(CREDENTIALS_SOURCE, source, "supported: USER_INFO, URL");
        };
    List<URI> plain = new ArrayList<>();
    for (URI url : urls) {
      plain.add(withoutUserInfo(url));
    }
    return new RegistryConfig(
        plain,
        userInfo,
        StoreConfig.from(config, TRUSTSTORE_PREFIX),
        StoreConfig.from(config, KEYSTORE_PREFIX),
        ConfigValues.secret(config, KEY_PASSWORD),
        Duration.ofMillis(ConfigValues.nonNegativeLong(config, CONNECT_TIMEOUT_MS, 10_000)),
        Duration.ofMillis(ConfigValues.nonNegativeLong(config, REQUEST_TIMEOUT_MS, 30_000)),
        ConfigValues.nonNegativeInt(config, MAX_RETRIES, 3),
        Duration.ofMillis(ConfigValues.nonNegativeLong(config, RETRIES_WAIT_MS, 100)),
        Duration.ofMillis(ConfigValues.nonNegativeLong(config, RETRIES_MAX_WAIT_MS, 5_000)));
  }

  /** True when the URL names the in-memory registry used by unit tests. */
  public boolean isMock() {
    return "mock".equals(urls.get(0).getScheme());
  }

  /** The scope of a {@code mock://scope} URL. */
  public String mockScope() {
    URI url = urls.get(0);
    return url.getAuthority() == null ? "" : url.getAuthority();
  }

  private static List<URI> parseUrls(String raw) {
    if (raw == null) {
      throw new ConfigException(URL + " is required");
    }
    List<URI> urls = new ArrayList<>();
    for (String part : raw.split(",")) {
      String trimmed = part.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      URI uri;
      try {
        uri = new URI(trimmed);
      } catch (URISyntaxException e) {
        throw new ConfigException(URL, redact(trimmed), "not a URL: " + e.getReason());
      }
      String scheme = uri.getScheme();
      if (scheme == null
          || !(scheme.equals("http") || scheme.equals("https") || scheme.equals("mock"))) {
        throw new ConfigException(URL, redact(trimmed), "scheme must be http, https or mock");
      }
      if (uri.getAuthority() == null) {
        throw new ConfigException(URL, redact(trimmed), "missing host");
      }
      urls.add(uri);
    }
    if (urls.isEmpty()) {
      throw new ConfigException(URL + " is required");
    }
    if (urls.size() > 1 && urls.stream().anyMatch(u -> "mock".equals(u.getScheme()))) {
      throw new ConfigException(URL, raw, "a mock:// URL cannot be combined with others");
    }
    return urls;
  }

  private static URI withoutUserInfo(URI url) {
    if (url.getRawUserInfo() == null) {
      return url;
    }
    try {
      return new URI(
          url.getScheme(), null, url.getHost(), url.getPort(), url.getPath(), null, null);
    } catch (URISyntaxException e) {
      throw new ConfigException(URL, redact(url.toString()), e.getReason());
    }
  }

  private static String redact(String url) {
    return url.replaceAll("//[^/@]*@", "//[hidden]@");
  }

  @Override
  public String toString() {
    return "RegistryConfig[urls="
        + urls
        + ", basicAuth="
        + (userInfo == null ? "none" : "[hidden]")
        + ", trustStore="
        + trustStore
        + ", keyStore="
        + keyStore
        + ", connectTimeout="
        + connectTimeout
        + ", requestTimeout="
        + requestTimeout
        + ", maxRetries="
        + maxRetries
        + ", retryBackoff="
        + retryBackoff
        + ", maxRetryBackoff="
        + maxRetryBackoff
        + "]";
  }
}
