from pkg_resources import parse_version
from configparser import ConfigParser
import setuptools, shlex
assert parse_version(setuptools.__version__)>=parse_version('36.2')

config = ConfigParser(delimiters=['='])
config.read('settings.ini', encoding='utf-8')
cfg = config['DEFAULT']
requirements = shlex.split(cfg.get('requirements', ''))
dev_requirements = shlex.split(cfg.get('dev_requirements', ''))
setuptools.setup(
    name=cfg['lib_name'], version=cfg['version'], license=cfg['license'],
    description=cfg['description'], author=cfg['author'], author_email=cfg['author_email'],
    packages=setuptools.find_packages(include=['normxlogit', 'normxlogit.*']),
    include_package_data=True, install_requires=requirements,
    extras_require={'dev': dev_requirements}, python_requires='>=' + cfg['min_python'],
    entry_points={'console_scripts': cfg.get('console_scripts', '').split() and [cfg['console_scripts'].replace(' ', '')] or [],
                  'nbdev': [f"{cfg['lib_path']}={cfg['lib_path']}._modidx:d"]},
    zip_safe=False)
