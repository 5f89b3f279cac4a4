/** The internal form of the shapes API. */
@GenerateDeepCopy
package dev.machinery.conversion.processor.shapes.internal;

import dev.machinery.conversion.GenerateDeepCopy;
