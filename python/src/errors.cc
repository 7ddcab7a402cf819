#include "errors.h"

#include <string_view>

namespace nb = nanobind;

namespace taco::py {
namespace {

// The taco_cpp.errors class name for a code.
const char* ClassName(StatusCode code) {
  switch (code) {
    case StatusCode::kInvalidArgument: return "InvalidArgumentError";
    case StatusCode::kNotFound: return "NotFoundError";
    case StatusCode::kCorruption: return "CorruptionError";
    case StatusCode::kIOError: return "TacoIOError";
    case StatusCode::kNotSupported: return "NotSupportedError";
    case StatusCode::kAlreadyExists: return "AlreadyExistsError";
    case StatusCode::kInternal:
    case StatusCode::kOk: break;
  }
  return "InternalError";
}

// Sets the Python error taco_cpp.errors._from_core(name, message) makes: the class of
// `name`, refined (KeyError, IndexError, ...) from the message (RuntimeError when that module
// cannot be imported, which only happens when the package is broken).
void Raise(const char* name, const char* message) {
  PyObject* module = PyImport_ImportModule("taco_cpp.errors");
  PyObject* make = module ? PyObject_GetAttrString(module, "_from_core") : nullptr;
  Py_XDECREF(module);
  if (make == nullptr) {
    PyErr_Clear();
    PyErr_SetString(PyExc_RuntimeError, message);
    return;
  }
  // The message may quote bytes of a damaged dataset that are not UTF-8.
  nb::str text = SafeStr(message);
  PyObject* error = PyObject_CallFunction(make, "sO", name, text.ptr());
  Py_DECREF(make);
  if (error == nullptr) return;  // _from_core raised: that error stands
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error)), error);
  Py_DECREF(error);
}

}  // namespace

nb::str SafeStr(std::string_view text) {
  PyObject* s = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "backslashreplace");
  if (s == nullptr) throw nb::python_error();
  return nb::steal<nb::str>(s);
}

void RegisterErrors(nb::module_& m) {
  (void)m;
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const StatusError& e) {
      Raise(ClassName(e.code()), e.what());
    } catch (const nb::builtin_exception&) {
      throw;  // nanobind's own (TypeError, IndexError, ...) keep their meaning
    } catch (const nb::python_error&) {
      throw;
    } catch (const std::bad_alloc&) {
      PyErr_NoMemory();
    } catch (const std::exception& e) {
      Raise("InternalError", (std::string("internal error: ") + e.what()).c_str());
    } catch (...) {
      Raise("InternalError", "internal error: unknown C++ exception");
    }
  });
}

}  // namespace taco::py
