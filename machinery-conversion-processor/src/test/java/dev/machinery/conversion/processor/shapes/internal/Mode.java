package dev.machinery.conversion.processor.shapes.internal;

public enum Mode {
  ACTIVE,
  PASSIVE
}
