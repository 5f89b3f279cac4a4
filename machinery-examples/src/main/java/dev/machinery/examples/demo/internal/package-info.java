/**
 * The internal form of the sample's {@code demo.example.dev} group; its deep copies are generated.
 */
@GenerateDeepCopy
package dev.machinery.examples.demo.internal;

import dev.machinery.conversion.GenerateDeepCopy;
