package dev.spindle.bench.jvm;

import static dev.spindle.bench.jvm.ChildJvm.JSON;

import com.fasterxml.jackson.databind.JsonNode;
import dev.spindle.bench.measure.Progress;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The main class of every {@link ChildJvm}: creates the service from the setup line, then answers
 * one call per line.
 */
public final class TrialServer {
  private TrialServer() {}

  public static void main(String[] args) throws Exception {
    // Lucene logs once, through java.util.logging, whether it vectorizes; one line is enough.
    System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s: %5$s%n");
    PrintStream replies =
        new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    System.setOut(System.err);
    BufferedReader calls =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    Object[] service = {null};
    answer(
        replies,
        () -> {
          service[0] = create(Class.forName(args[0]), calls.readLine());
          return null;
        });
    for (String line = calls.readLine(); line != null; line = calls.readLine()) {
      ChildJvm.Call call = JSON.readValue(line, ChildJvm.Call.class);
      answer(replies, () -> invoke(service[0], call));
    }
    if (service[0] instanceof Closeable closeable) {
      closeable.close();
    }
    // An engine's thread pools may outlive its close.
    System.exit(0);
  }

  @FunctionalInterface
  private interface Action {
    Object run() throws Exception;
  }

  private static void answer(PrintStream replies, Action action) throws Exception {
    try {
      Object value = action.run();
      replies.println(JSON.writeValueAsString(new ChildJvm.Reply(JSON.valueToTree(value), null)));
    } catch (Exception e) {
      Throwable failure = e instanceof InvocationTargetException ite ? ite.getCause() : e;
      String why = Progress.causes(failure);
      replies.println(JSON.writeValueAsString(new ChildJvm.Reply(null, why)));
      throw e;
    }
  }

  private static Object create(Class<?> type, String setup) throws Exception {
    for (Constructor<?> constructor : type.getConstructors()) {
      if (constructor.getParameterCount() == 1) {
        JsonNode tree = JSON.readTree(setup);
        Object arg =
            JSON.convertValue(tree, JSON.constructType(constructor.getGenericParameterTypes()[0]));
        return constructor.newInstance(arg);
      }
    }
    return type.getConstructor().newInstance();
  }

  private static Object invoke(Object service, ChildJvm.Call call) throws Exception {
    Method method =
        Arrays.stream(service.getClass().getMethods())
            .filter(m -> m.getName().equals(call.method()))
            .findFirst()
            .orElseThrow(() -> new IOException("no method " + call.method() + " in " + service));
    Object[] args = new Object[method.getParameterCount()];
    for (int i = 0; i < args.length; i++) {
      args[i] =
          JSON.convertValue(
              call.args().get(i), JSON.constructType(method.getGenericParameterTypes()[i]));
    }
    return method.invoke(service, args);
  }
}
