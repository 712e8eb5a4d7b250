/* rosenbrock_ad._core: the Rosenbrock function and its gradient, by reverse-mode AD.
   The __enzyme_autodiff request is replaced with the derivative when the extension is built. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>

#include <enzyme/enzyme.h>

double rosenbrock(const double *x, long n);

/* The floats of a sequence in a new malloc'd array; NULL with an exception set on failure. */
static double *read_floats(PyObject *sequence, Py_ssize_t *n) {
  PyObject *fast = PySequence_Fast(sequence, "x must be a sequence of floats");
  if (fast == NULL) {
    return NULL;
  }
  *n = PySequence_Fast_GET_SIZE(fast);
  double *x = malloc(sizeof(double) * (size_t)(*n > 0 ? *n : 1));
  if (x == NULL) {
    Py_DECREF(fast);
    PyErr_NoMemory();
    return NULL;
  }
  for (Py_ssize_t i = 0; i < *n; i++) {
    x[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
    if (x[i] == -1.0 && PyErr_Occurred()) {
      free(x);
      Py_DECREF(fast);
      return NULL;
    }
  }
  Py_DECREF(fast);
  return x;
}

static PyObject *py_rosenbrock(PyObject *self, PyObject *arg) {
  (void)self;
  Py_ssize_t n;
  double *x = read_floats(arg, &n);
  if (x == NULL) {
    return NULL;
  }
  double value = rosenbrock(x, (long)n);
  free(x);
  return PyFloat_FromDouble(value);
}

static PyObject *py_gradient(PyObject *self, PyObject *arg) {
  (void)self;
  Py_ssize_t n;
  double *x = read_floats(arg, &n);
  if (x == NULL) {
    return NULL;
  }
  double *dx = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
  if (dx == NULL) {
    free(x);
    return PyErr_NoMemory();
  }
  __enzyme_autodiff((void *)rosenbrock, enzyme_dup, x, dx, enzyme_const, (long)n);
  PyObject *result = PyList_New(n);
  for (Py_ssize_t i = 0; result != NULL && i < n; i++) {
    PyList_SET_ITEM(result, i, PyFloat_FromDouble(dx[i]));
  }
  free(x);
  free(dx);
  return result;
}

static PyMethodDef methods[] = {
    {"rosenbrock", py_rosenbrock, METH_O, "rosenbrock(x) -> float: the Rosenbrock function of a sequence x."},
    {"gradient", py_gradient, METH_O, "gradient(x) -> list[float]: its gradient, by reverse-mode AD."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", NULL, -1, methods};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
