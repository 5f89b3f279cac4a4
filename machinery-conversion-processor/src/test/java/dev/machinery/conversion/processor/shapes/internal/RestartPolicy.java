package dev.machinery.conversion.processor.shapes.internal;

public enum RestartPolicy {
  Always,
  OnFailure,
  Never
}
