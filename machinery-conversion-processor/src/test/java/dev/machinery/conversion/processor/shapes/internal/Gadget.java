package dev.machinery.conversion.processor.shapes.internal;

public record Gadget(int width, int height) {}
