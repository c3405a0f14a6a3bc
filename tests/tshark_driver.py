"""The command line shared by the tshark-driven test scripts (tests/j2735/j2735_check.py,
tests/wsmp/wsmp_test.py): where run-tshark, the built plugins, the captures and the test
vectors are. Each script adds its own options and the test name."""
import argparse


def arg_parser():
    """An ArgumentParser with the options every tshark test driver requires."""
    ap = argparse.ArgumentParser()
    for option in ('--run-tshark', '--plugins', '--captures', '--vectors'):
        ap.add_argument(option, required=True)
    return ap
