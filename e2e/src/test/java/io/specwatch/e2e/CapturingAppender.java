package io.specwatch.e2e;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/**
 * Every log event of the JVM (message and exception chain), in memory, while it is on the root
 * logger ({@link #attachToRoot()} to {@link #detachFromRoot()}): what {@link SaslPipelineIT}
 * searches for passwords.
 */
final class CapturingAppender extends AbstractAppender {
  final StringBuffer text = new StringBuffer();

  CapturingAppender() {
    super("sasl-it-capture", null, null, true, Property.EMPTY_ARRAY);
  }

  @Override
  public void append(LogEvent event) {
    text.append(event.getMessage().getFormattedMessage()).append('\n');
    for (Throwable t = event.getThrown(); t != null; t = t.getCause()) {
      text.append(t).append('\n');
    }
  }

  /** A started appender, added to the root logger of log4j's current context. */
  static CapturingAppender attachToRoot() {
    CapturingAppender logs = new CapturingAppender();
    logs.start();
    LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
    ctx.getConfiguration().getRootLogger().addAppender(logs, null, null);
    ctx.updateLoggers();
    return logs;
  }

  /** Removes it from the root logger again. */
  void detachFromRoot() {
    LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
    ctx.getConfiguration().getRootLogger().removeAppender(getName());
    ctx.updateLoggers();
  }
}
