package dev.machinery.conversion.processor.shapes.v1;

public enum Mode {
  ACTIVE,
  PASSIVE
}
