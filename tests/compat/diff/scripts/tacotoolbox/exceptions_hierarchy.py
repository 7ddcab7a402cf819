# T86: the exception classes and their bases.
from tacotoolbox import _exceptions as E
import _tbkit as K

K.workdir()
names = ["TacoToolboxError", "TacoValidationError", "TacoCreationError", "TacoConsolidationError", "TacoSchemaError",
         "TacoIOError", "TacoDocumentationError"]
K.emit({n: [b.__name__ for b in getattr(E, n).__mro__[1:]] for n in names})
