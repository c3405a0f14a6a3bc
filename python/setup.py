"""The module's version is the project's: project(... VERSION ...) of the top
CMakeLists.txt, which also versions libv2x."""
import pathlib
import re

from setuptools import setup

top = pathlib.Path(__file__).resolve().parent.parent / "CMakeLists.txt"
setup(version=re.search(r"project\(\S+ VERSION (\S+)", top.read_text())[1])
